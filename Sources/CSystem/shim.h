// glibc functions that its Swift module leaves out because they are
// declared only with _GNU_SOURCE (Linux's own interfaces), declared here as
// glibc defines them. Defining _GNU_SOURCE itself would change types that
// Swift's Glibc module already holds, so only these declarations are
// repeated. Nothing here is a library of its own.
#ifndef PB_CSYSTEM_SHIM_H
#define PB_CSYSTEM_SHIM_H

#include <spawn.h>
#include <sys/types.h>
#include <sys/timerfd.h>
#include <sys/vfs.h>
#include <linux/magic.h>

/// posix_spawn's "new session" flag (glibc, since 2.26).
#define PB_POSIX_SPAWN_SETSID 0x80

extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *actions, const char *path);
extern int pidfd_open(pid_t pid, unsigned int flags);
extern int pipe2(int fds[2], int flags);
extern int renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags);

#endif
