/* guard.c - only the job's own user may connect to rrun's PMIx server.
 *
 * libpmix 4.2 serves its clients over TCP only (it dropped Unix sockets),
 * on 127.0.0.1 here, and its "native" security takes the uid and gid a
 * client claims in its connect message on trust: a TCP peer has no
 * SO_PEERCRED. Any local user who reached the port could claim a rank of
 * this job, read its data and end it with PMIx_Abort.
 *
 * rrun therefore defines accept() itself. The executable's definition
 * comes first in the dynamic lookup, so libpmix's listener thread calls
 * this one (the link exports it because libpmix refers to it). Each
 * accepted connection is checked before libpmix reads a byte of it: the
 * kernel, asked through sock_diag for the socket at the other end of the
 * connection (both ends are on this host), says which uid created it. A
 * connection from another uid, or one whose other end is not on this host
 * (rrun's servers serve local ranks only), is closed, and accept() reports
 * ECONNABORTED, which libpmix's listener treats as a connection that went
 * away in its backlog. The job never sees it.
 *
 * The namespace is also unguessable (job.c: 128 random bits), so the job
 * cannot be named from the outside either; but the check above does not
 * depend on that. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "config.h"

#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>

#include "launcher/rrun/rrun.h"

/* Connections refused so far. */
static unsigned long refused;

/* The uid that owns the TCP socket whose local end is `peer` and remote
 * end `self`, both on this host; -1 when the kernel knows no such socket. */
static long peer_uid(const struct sockaddr_storage *self, const struct sockaddr_storage *peer)
{
    struct {
        struct nlmsghdr nlh;
        struct inet_diag_req_v2 req;
    } msg;
    char reply[8192];
    struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
    long uid = -1;
    int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);

    if (fd < 0)
        return -1;
    memset(&msg, 0, sizeof(msg));
    msg.nlh.nlmsg_len = sizeof(msg);
    msg.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
    msg.nlh.nlmsg_flags = NLM_F_REQUEST;
    msg.req.sdiag_family = (__u8)peer->ss_family;
    msg.req.sdiag_protocol = IPPROTO_TCP;
    msg.req.idiag_states = ~0u;
    msg.req.id.idiag_cookie[0] = INET_DIAG_NOCOOKIE;
    msg.req.id.idiag_cookie[1] = INET_DIAG_NOCOOKIE;
    if (peer->ss_family == AF_INET) {
        const struct sockaddr_in *p = (const void *)peer, *s = (const void *)self;

        msg.req.id.idiag_sport = p->sin_port;
        msg.req.id.idiag_dport = s->sin_port;
        memcpy(msg.req.id.idiag_src, &p->sin_addr, 4);
        memcpy(msg.req.id.idiag_dst, &s->sin_addr, 4);
    } else if (peer->ss_family == AF_INET6) {
        const struct sockaddr_in6 *p = (const void *)peer, *s = (const void *)self;

        msg.req.id.idiag_sport = p->sin6_port;
        msg.req.id.idiag_dport = s->sin6_port;
        memcpy(msg.req.id.idiag_src, &p->sin6_addr, 16);
        memcpy(msg.req.id.idiag_dst, &s->sin6_addr, 16);
    } else {
        goto out;
    }
    if (sendto(fd, &msg, sizeof(msg), 0, (struct sockaddr *)&kernel, sizeof(kernel)) !=
        (ssize_t)sizeof(msg))
        goto out;
    for (;;) {
        ssize_t n = recv(fd, reply, sizeof(reply), 0);
        struct nlmsghdr *h = (struct nlmsghdr *)reply;

        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            goto out;
        for (; NLMSG_OK(h, (size_t)n); h = NLMSG_NEXT(h, n)) {
            if (h->nlmsg_type == SOCK_DIAG_BY_FAMILY &&
                h->nlmsg_len >= NLMSG_LENGTH(sizeof(struct inet_diag_msg))) {
                const struct inet_diag_msg *d = NLMSG_DATA(h);

                uid = (long)d->idiag_uid;
            }
            if (h->nlmsg_type == SOCK_DIAG_BY_FAMILY || h->nlmsg_type == NLMSG_ERROR ||
                h->nlmsg_type == NLMSG_DONE)
                goto out;
        }
    }
out:
    close(fd);
    return uid;
}

/* The uid at the other end of the connection on `fd`; -1: unknown. */
static long connection_uid(int fd)
{
    struct sockaddr_storage self, peer;
    socklen_t slen = sizeof(self), plen = sizeof(peer);

    if (getsockname(fd, (struct sockaddr *)&self, &slen) != 0 ||
        getpeername(fd, (struct sockaddr *)&peer, &plen) != 0)
        return -1;
    if (peer.ss_family == AF_UNIX) {
        struct ucred cred;
        socklen_t clen = sizeof(cred);

        return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) == 0 ? (long)cred.uid : -1;
    }
    return peer_uid(&self, &peer);
}

int accept(int fd, struct sockaddr *addr, socklen_t *addrlen)
{
    int c = (int)syscall(SYS_accept4, fd, addr, addrlen, 0);
    long uid;

    if (c < 0 || (uid = connection_uid(c)) == (long)geteuid())
        return c;
    close(c);
    /* Said once: a flood of attempts must not flood the job's stderr. */
    if (__atomic_fetch_add(&refused, 1, __ATOMIC_RELAXED) == 0) {
        if (uid >= 0)
            fprintf(stderr, "rrun: refused a connection to the job's PMIx server from uid %ld "
                    "(only uid %ld may join)\n", uid, (long)geteuid());
        else
            fprintf(stderr, "rrun: refused a connection to the job's PMIx server from outside "
                    "this host\n");
    }
    errno = ECONNABORTED;
    return -1;
}
