/* json: encode and decode nested data with a real C JSON library.
 *
 * jansson (Debian's source, fetched at run time by utils/bench/run and
 * compiled into the benchmark in every mode, not kept in git) turns a
 * document of 100 records, nested five levels deep, into text and back,
 * over and over: recursive descent through objects, arrays and strings,
 * hash tables, the allocator, and snprintf for every number (the C
 * library's printf family, of unbounded call depth). Usage: json [ROUNDS];
 * each round encodes the document (compact, and every other round indented
 * with sorted keys), decodes the text, walks the decoded values and frees
 * them, and the text and the values are folded into a checksum. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jansson.h"

#define RECORDS 100

static unsigned long checksum = 14695981039346656037ul;

static void mix(const void *data, size_t len) {
  const unsigned char *p = data;
  for (size_t i = 0; i < len; i++)
    checksum = (checksum ^ p[i]) * 1099511628211ul;
}

static json_t *must(json_t *value) {
  if (!value) {
    fputs("json: out of memory\n", stderr);
    exit(1);
  }
  return value;
}

/* A value nested `depth` more levels: an object of scalars, a list and a
 * child. */
static json_t *nested(unsigned seed, int depth) {
  char name[32];
  json_t *o = must(json_object());
  snprintf(name, sizeof name, "item-%u", seed % 9973);
  json_object_set_new(o, "name", must(json_string(name)));
  json_object_set_new(o, "id", must(json_integer(seed)));
  json_object_set_new(o, "weight", must(json_real(seed % 1000 / 7.0)));
  json_object_set_new(o, "active", json_boolean(seed & 1));
  json_t *list = must(json_array());
  for (unsigned i = 0; i < 4; i++)
    json_array_append_new(list, must(json_integer((json_int_t)seed * i)));
  json_array_append_new(list, must(json_string("tag \"quoted\" \xc3\xa9")));
  json_object_set_new(o, "list", list);
  if (depth > 0)
    json_object_set_new(o, "child",
                        nested(seed * 1103515245u + 12345u, depth - 1));
  else
    json_object_set_new(o, "child", json_null());
  return o;
}

/* Folds a decoded value into the checksum, depth first. */
static void walk(const json_t *v) {
  const char *key;
  json_t *item;
  size_t i;
  switch (json_typeof(v)) {
  case JSON_OBJECT:
    json_object_foreach((json_t *)v, key, item) {
      mix(key, strlen(key));
      walk(item);
    }
    break;
  case JSON_ARRAY:
    json_array_foreach(v, i, item) walk(item);
    break;
  case JSON_STRING:
    mix(json_string_value(v), json_string_length(v));
    break;
  case JSON_INTEGER: {
    json_int_t n = json_integer_value(v);
    mix(&n, sizeof n);
    break;
  }
  case JSON_REAL: {
    double d = json_real_value(v);
    mix(&d, sizeof d);
    break;
  }
  default: /* true, false, null */
    mix(json_is_true(v) ? "t" : json_is_false(v) ? "f" : "n", 1);
    break;
  }
}

int main(int argc, char **argv) {
  long rounds = argc > 1 ? atol(argv[1]) : 150;
  json_object_seed(20240607); /* the same hash tables in every run */
  json_t *doc = must(json_array());
  for (unsigned r = 0; r < RECORDS; r++)
    json_array_append_new(doc, nested(r * 2654435761u, 5));
  for (long round = 0; round < rounds; round++) {
    size_t flags = round & 1 ? JSON_INDENT(2) | JSON_SORT_KEYS : JSON_COMPACT;
    char *text = json_dumps(doc, flags);
    json_error_t error;
    if (!text) {
      fputs("json: cannot encode\n", stderr);
      return 1;
    }
    mix(text, strlen(text));
    json_t *back = json_loads(text, 0, &error);
    if (!back) {
      fprintf(stderr, "json: cannot decode: %s\n", error.text);
      return 1;
    }
    walk(back);
    json_decref(back);
    free(text);
  }
  json_decref(doc);
  printf("json %ld: %lu\n", rounds, checksum);
  return 0;
}
