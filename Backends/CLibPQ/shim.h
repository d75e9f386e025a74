#include <libpq-fe.h>
#include <poll.h>
#include <signal.h>
#include <time.h>

/// `ppoll(2)`, which glibc declares only under `_GNU_SOURCE`: the listener waits for its socket with a
/// timeout finer than `poll(2)`'s millisecond.
extern int ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *timeout, const __sigset_t *sigmask);
