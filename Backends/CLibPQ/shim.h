#include <libpq-fe.h>
#include <poll.h>
#include <signal.h>
#include <time.h>

#if defined(__linux__)
/// `ppoll(2)`, which glibc and musl declare only under `_GNU_SOURCE`: on Linux the change feeds wait for their
/// sockets with a timeout finer than `poll(2)`'s millisecond. Other systems (macOS has no `ppoll`) use `poll(2)`
/// (Backends/Postgres/ChangeFeed/DescriptorWait.swift).
extern int ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *timeout, const sigset_t *sigmask);
#endif
