/* verbs_select.c - the verbs transport's choices that need no device:
 * RDMPI_VERBS_DEVICE's syntax, which device a rank takes among candidates
 * (the best kind, then the ones near its cores, spread by local rank), and
 * which GID index RoCE uses. */
#include "config.h"

#include <string.h>

#include "test/tap.h"
#include "transports/verbs/verbs.h"

static int parse(const char *spec, char *name, int *port)
{
    return vb_dev_parse_spec(spec, name, 64, port);
}

static struct vb_gid_ent gid(int index, int type, const char *kind)
{
    struct vb_gid_ent e = {.index = index, .type = type};
    if (strcmp(kind, "ipv4") == 0) {
        e.raw[10] = e.raw[11] = 0xff;
        e.raw[12] = 192, e.raw[13] = 0, e.raw[14] = 2, e.raw[15] = 1;
    } else if (strcmp(kind, "linklocal") == 0) {
        e.raw[0] = 0xfe, e.raw[1] = 0x80, e.raw[15] = 7;
    } else if (strcmp(kind, "global") == 0) {
        e.raw[0] = 0x20, e.raw[1] = 0x01, e.raw[2] = 0x0d, e.raw[3] = 0xb8, e.raw[15] = 9;
    }
    return e;
}

int main(void)
{
    char name[64];
    int port = -1;
    tap_ok(parse("mlx5_0:1", name, &port) == 0 && strcmp(name, "mlx5_0") == 0 && port == 1, "mlx5_0:1");
    tap_ok(parse("rxe0", name, &port) == 0 && strcmp(name, "rxe0") == 0 && port == 0, "rxe0: any port");
    tap_is_int(parse(":1", name, &port), -1, "':1': no device name");
    tap_is_int(parse("mlx5_0:", name, &port), -1, "'mlx5_0:': no port");
    tap_is_int(parse("mlx5_0:0", name, &port), -1, "port 0 does not exist");
    tap_is_int(parse("mlx5_0:256", name, &port), -1, "port 256 does not exist");
    tap_is_int(parse("mlx5_0:1x", name, &port), -1, "'1x' is not a port");
    tap_is_int(parse("a_device_name_longer_than_sixty_four_characters_is_not_a_device_name", name, &port), -1,
               "a name too long");

    struct vb_cand two_roce[2] = {{"mlx5_0", 1, VB_KIND_ROCE, 1}, {"mlx5_1", 1, VB_KIND_ROCE, 1}};
    tap_is_int(vb_dev_pick(two_roce, 2, 0), 0, "two near RoCE devices: local rank 0 takes the first");
    tap_is_int(vb_dev_pick(two_roce, 2, 1), 1, "local rank 1 the second");
    tap_is_int(vb_dev_pick(two_roce, 2, 2), 0, "local rank 2 the first again");
    two_roce[0].near = 0;
    tap_is_int(vb_dev_pick(two_roce, 2, 0), 1, "the first far from the rank's cores: every rank takes the near one");
    tap_is_int(vb_dev_pick(two_roce, 2, 1), 1, "(local rank 1 too)");
    struct vb_cand mixed[3] = {{"siw0", 1, VB_KIND_IWARP, 1}, {"rxe0", 1, VB_KIND_ROCE, 0}, {"rxe1", 1, VB_KIND_ROCE, 0}};
    tap_is_int(vb_dev_pick(mixed, 3, 0), 1, "iWARP near, RoCE far: RoCE (ranks must share a kind)");
    tap_is_int(vb_dev_pick(mixed, 3, 1), 2, "spread over the RoCE ones");
    struct vb_cand ib[2] = {{"rxe0", 1, VB_KIND_ROCE, 1}, {"mlx5_0", 1, VB_KIND_IB, 0}};
    tap_is_int(vb_dev_pick(ib, 2, 0), 1, "InfiniBand before RoCE");
    tap_is_int(vb_dev_pick(ib, 0, 0), -1, "no candidate: none");

    struct vb_gid_ent g[5] = {gid(0, VB_GID_ROCE_V1, "linklocal"), gid(1, VB_GID_ROCE_V2, "linklocal"),
                              gid(2, VB_GID_ROCE_V2, "ipv4"), gid(3, VB_GID_ROCE_V2, "global"),
                              gid(4, VB_GID_ROCE_V1, "ipv4")};
    tap_is_int(vb_gid_pick(g, 5), 2, "RoCE v2 with an IPv4 address first");
    struct vb_gid_ent g2[4] = {g[0], g[1], g[3], g[4]};
    tap_is_int(vb_gid_pick(g2, 4), 3, "then RoCE v2 with a global IPv6 address");
    struct vb_gid_ent g3[3] = {g[0], g[1], g[4]};
    tap_is_int(vb_gid_pick(g3, 3), 1, "then any RoCE v2 (link-local)");
    struct vb_gid_ent g4[2] = {g[0], g[4]};
    tap_is_int(vb_gid_pick(g4, 2), 4, "then RoCE v1 with an IPv4 address");
    struct vb_gid_ent zero = {.index = 0, .type = VB_GID_ROCE_V2};
    tap_is_int(vb_gid_pick(&zero, 1), -1, "an empty GID: none");
    return tap_done();
}
