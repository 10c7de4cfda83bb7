// A program that closes every descriptor it did not open itself and sends
// its stderr to /dev/null, as daemons and test harnesses do, then forks a
// child that does the same: rsb-check must still report both processes.
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static void cut_off(void) {
  int null = open("/dev/null", O_WRONLY);
  dup2(null, 2);
  close_range(3, ~0U, 0);
}

int main(void) {
  cut_off();
  pid_t pid = fork();
  if (pid == 0) {
    cut_off();
    _exit(5);
  }
  int status;
  waitpid(pid, &status, 0);
  printf("child=%d\n", WEXITSTATUS(status));
  return 0;
}
