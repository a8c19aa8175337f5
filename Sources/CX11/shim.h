// The parts of libX11, libXfixes (selection change notifications) and of
// the system that pb's X11 backend uses. Only PasteboardX11 imports this
// module; headers come from the include path that pkg-config gives.
#ifndef PB_CX11_SHIM_H
#define PB_CX11_SHIM_H

#include <X11/Xlib.h>
#include <X11/Xatom.h>
#include <X11/Xutil.h>
#include <X11/XKBlib.h>
#include <X11/extensions/Xfixes.h>
#include <spawn.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <signal.h>
#include <poll.h>
#include <time.h>
#include <malloc.h>

// Xlib's accessors are macros, which Swift does not import.
static inline int pb_connection_number(Display *d) { return ConnectionNumber(d); }
static inline Window pb_default_root(Display *d) { return DefaultRootWindow(d); }
static inline unsigned long pb_next_request(Display *d) { return NextRequest(d); }

// XFixes selection notifications: every way a selection's owner changes
// (a new owner, the owner's window destroyed, the owner's client gone).
static const unsigned long pb_xfixes_selection_mask =
    XFixesSetSelectionOwnerNotifyMask | XFixesSelectionWindowDestroyNotifyMask |
    XFixesSelectionClientCloseNotifyMask;
static const int pb_xfixes_selection_notify = XFixesSelectionNotify;
static const int pb_xfixes_set_owner = XFixesSetSelectionOwnerNotify;

// glibc declares these only with _GNU_SOURCE, which Swift's Glibc module
// does not define; the system calls themselves are stable.
#ifndef SYS_memfd_create
#define SYS_memfd_create 319
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif

/// An anonymous in-memory file (memfd_create with MFD_CLOEXEC).
static inline int pb_memfd_create(const char *name) {
  return (int)syscall(SYS_memfd_create, name, 1u);
}

/// Closes every descriptor from `first` up (close_range).
static inline int pb_close_from(int first) {
  return (int)syscall(SYS_close_range, (unsigned)first, ~0u, 0u);
}

/// Closes the descriptors from `first` to `last` (close_range).
static inline int pb_close_range(unsigned first, unsigned last) {
  return (int)syscall(SYS_close_range, first, last, 0u);
}

/// poll that atomically installs `mask` while it waits (ppoll), so a
/// signal blocked elsewhere can only arrive during the wait: no self-pipe,
/// no descriptor, no race. A negative timeout waits without limit.
static inline int pb_ppoll(struct pollfd *fds, unsigned long n, int timeout_ms, const sigset_t *mask) {
  struct timespec ts, *tp = 0;
  if (timeout_ms >= 0) {
    ts.tv_sec = timeout_ms / 1000;
    ts.tv_nsec = (long)(timeout_ms % 1000) * 1000000L;
    tp = &ts;
  }
  return (int)syscall(SYS_ppoll, fds, n, tp, mask, (unsigned long)(_NSIG / 8));
}

/// Keeps freed memory for reuse instead of returning it to the system at
/// once: Xlib allocates a fresh buffer for every property reply, and a
/// large paste would otherwise map, fault in and unmap a megabyte per
/// chunk. The process's peak memory is unchanged.
static inline void pb_keep_freed_memory(void) {
  mallopt(M_MMAP_THRESHOLD, 16 << 20);
  mallopt(M_TRIM_THRESHOLD, 32 << 20);
}

#endif
