/* path.c: finding an executable the way a shell's PATH search would (POSIX
 * "Command Search and Execution": a name with '/' is used as it is; an empty
 * PATH entry means the current directory). Used by the tksim driver for the
 * program to run and by hiprtc for the compiler to spawn, both of which check
 * before exec because a failed exec after fork is only exit status 127. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tksim.h"

static int is_executable_file(const char *p)
{
  struct stat st;
  return !stat(p, &st) && S_ISREG(st.st_mode) && !access(p, X_OK);
}

int tks_find_executable(const char *name, char *out, size_t outlen)
{
  if (strchr(name, '/')) {
    if (!is_executable_file(name)) { errno = ENOENT; return -1; }
    snprintf(out, outlen, "%s", name);
    return 0;
  }
  const char *path = getenv("PATH");
  if (!path || !*path) path = "/usr/local/bin:/usr/bin:/bin";
  while (*path) {
    const char *c = strchr(path, ':');
    size_t n = c ? (size_t)(c - path) : strlen(path);
    if (n == 0) snprintf(out, outlen, "./%s", name);
    else snprintf(out, outlen, "%.*s/%s", (int)n, path, name);
    if (is_executable_file(out)) return 0;
    path += n + (c ? 1 : 0);
  }
  errno = ENOENT;
  return -1;
}
