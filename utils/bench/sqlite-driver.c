/* sqlite-driver: a fixed SQLite workload on an in-memory database.
 *
 * The real program of the benchmark suite: the SQLite amalgamation (fetched
 * at run time by utils/bench/run, not kept in git) compiled in every mode,
 * driven by this file. Usage: sqlite-driver [ROWS]; creates a table, inserts
 * ROWS rows in one transaction, builds an index, runs SELECTs with ORDER BY,
 * GROUP BY and LIKE, updates, and prints a checksum of every result. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqlite3.h"

static sqlite3 *db;
static unsigned long checksum = 14695981039346656037ul;

static void die(const char *what) {
  fprintf(stderr, "sqlite-driver: %s: %s\n", what, sqlite3_errmsg(db));
  exit(1);
}

static void mix(const void *data, size_t len) {
  const unsigned char *p = data;
  for (size_t i = 0; i < len; i++)
    checksum = (checksum ^ p[i]) * 1099511628211ul;
}

/* Runs SQL, folding every column of every result row into the checksum. */
static void query(const char *sql) {
  sqlite3_stmt *st;
  int rc;
  if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
    die(sql);
  while ((rc = sqlite3_step(st)) == SQLITE_ROW)
    for (int c = 0; c < sqlite3_column_count(st); c++) {
      const unsigned char *text = sqlite3_column_text(st, c);
      if (text)
        mix(text, strlen((const char *)text));
      mix("|", 1);
    }
  if (rc != SQLITE_DONE)
    die(sql);
  sqlite3_finalize(st);
}

static void insert_rows(long rows) {
  sqlite3_stmt *st;
  unsigned seed = 42;
  char name[32];
  query("BEGIN");
  if (sqlite3_prepare_v2(db, "INSERT INTO t(name, grp, val) VALUES (?, ?, ?)",
                         -1, &st, NULL) != SQLITE_OK)
    die("prepare insert");
  for (long i = 0; i < rows; i++) {
    seed = seed * 1103515245u + 12345u;
    snprintf(name, sizeof name, "item-%u-%ld", seed >> 12, i);
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 2, (int)(seed >> 8 & 255));
    sqlite3_bind_double(st, 3, (double)(seed & 0xffff) / 16.0);
    if (sqlite3_step(st) != SQLITE_DONE)
      die("insert");
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
  query("COMMIT");
}

int main(int argc, char **argv) {
  long rows = argc > 1 ? atol(argv[1]) : 30000;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK)
    die("open");
  query("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, grp INTEGER, "
        "val REAL)");
  insert_rows(rows);
  query("CREATE INDEX t_grp ON t(grp)");
  query("SELECT grp, count(*), sum(val), min(name) FROM t GROUP BY grp "
        "ORDER BY grp");
  query("SELECT id, name FROM t WHERE name LIKE '%77%' ORDER BY val DESC, id "
        "LIMIT 200");
  query("SELECT count(*) FROM t WHERE grp BETWEEN 10 AND 20");
  query("UPDATE t SET val = val * 2 + 1 WHERE grp < 64");
  query("SELECT grp % 7, avg(val), max(id) FROM t WHERE grp < 128 "
        "GROUP BY grp % 7 ORDER BY 2 DESC");
  query("SELECT a.grp, count(*) FROM t a JOIN t b ON a.id = b.id + 1 "
        "WHERE a.grp = b.grp GROUP BY a.grp ORDER BY 2 DESC, 1 LIMIT 20");
  query("DELETE FROM t WHERE id % 3 = 0");
  query("SELECT count(*), sum(length(name)) FROM t");
  printf("sqlite %ld: %lu\n", rows, checksum);
  sqlite3_close(db);
  return 0;
}
