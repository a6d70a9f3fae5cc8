/* Unit test: the parameter table and the logging configuration. */
#include <stdlib.h>
#include <string.h>

#include "runtime/base/log.h"
#include "runtime/base/params.h"
#include "test/tap.h"

int main(void)
{
    long v = -7;
    char err[256];

    tap_ok(rd_param_parse_size("4096", &v) == 0 && v == 4096, "size 4096");
    tap_ok(rd_param_parse_size("64k", &v) == 0 && v == 65536, "size 64k");
    tap_ok(rd_param_parse_size("1M", &v) == 0 && v == 1048576, "size 1M");
    tap_ok(rd_param_parse_size("2g", &v) == 0 && v == 2147483648L, "size 2g");
    tap_ok(rd_param_parse_size("8KB", &v) == 0 && v == 8192, "size 8KB");
    tap_ok(rd_param_parse_size("0x100", &v) == 0 && v == 256, "size 0x100");
    tap_ok(rd_param_parse_size("-1", &v) == -1, "negative size refused");
    tap_ok(rd_param_parse_size("12x", &v) == -1, "size with junk refused");
    tap_ok(rd_param_parse_size("", &v) == -1, "empty size refused");
    tap_ok(rd_param_parse_size("99999999999g", &v) == -1, "overflowing size refused");

    tap_ok(rd_param_parse_bool("yes", &v) == 0 && v == 1, "bool yes");
    tap_ok(rd_param_parse_bool("OFF", &v) == 0 && v == 0, "bool OFF");
    tap_ok(rd_param_parse_bool("1", &v) == 0 && v == 1, "bool 1");
    tap_ok(rd_param_parse_bool("maybe", &v) == -1, "bool maybe refused");

    tap_ok(rd_param_parse_enum("get|put|auto: doc", "put", &v) == 0 && v == 1, "enum put is 1");
    tap_ok(rd_param_parse_enum("get|put|auto: doc", "auto", &v) == 0 && v == 2, "enum auto is 2");
    tap_ok(rd_param_parse_enum("get|put|auto", "get", &v) == 0 && v == 0, "enum without doc");
    tap_ok(rd_param_parse_enum("get|put|auto: doc", "pu", &v) == -1, "enum prefix refused");
    tap_ok(rd_param_parse_enum("get|put|auto: doc", "doc", &v) == -1, "enum doc word refused");

    /* loading: defaults, then the environment */
    unsetenv("RDMPI_LOG");
    unsetenv("RDMPI_OVERSUBSCRIBED");
    tap_is_int(rd_params_load(err, sizeof(err)), 0, "load with defaults");
    tap_is_str(rd_param.log, "warn", "default RDMPI_LOG");
    tap_is_int(rd_param.oversubscribed, 0, "default RDMPI_OVERSUBSCRIBED");
    setenv("RDMPI_OVERSUBSCRIBED", "yes", 1);
    setenv("RDMPI_LOG", "debug:job", 1);
    tap_is_int(rd_params_load(err, sizeof(err)), 0, "load from environment");
    tap_is_int(rd_param.oversubscribed, 1, "RDMPI_OVERSUBSCRIBED=yes read");
    tap_is_str(rd_param.log, "debug:job", "RDMPI_LOG read");
    setenv("RDMPI_OVERSUBSCRIBED", "perhaps", 1);
    tap_is_int(rd_params_load(err, sizeof(err)), -1, "bad bool refused");
    tap_is_str(err, "RDMPI_OVERSUBSCRIBED='perhaps' is not a valid bool", "message names the variable");
    unsetenv("RDMPI_OVERSUBSCRIBED");
    setenv("RDMPI_LOGG", "x", 1);
    tap_is_int(rd_params_load(err, sizeof(err)), 1, "unknown RDMPI_ variable is a warning");
    tap_is_str(err, "unknown parameter RDMPI_LOGG (rdmpi_info --params lists them)", "warning names it");
    unsetenv("RDMPI_LOGG");

    /* declared ranges, and an ENUM's generated constants */
    setenv("RDMPI_VERBS_TIMEOUT", "40", 1);
    tap_is_int(rd_params_load(err, sizeof(err)), -1, "value above the declared max refused");
    tap_is_str(err, "RDMPI_VERBS_TIMEOUT='40' is not in [1, 31]", "message gives the range");
    setenv("RDMPI_VERBS_TIMEOUT", "31", 1);
    tap_is_int(rd_params_load(err, sizeof(err)), 0, "the max itself accepted");
    tap_is_int(rd_param.verbs_timeout, 31, "RDMPI_VERBS_TIMEOUT=31 read");
    setenv("RDMPI_VERBS_TIMEOUT", "0", 1);
    tap_is_int(rd_params_load(err, sizeof(err)), -1, "value below the declared min refused");
    unsetenv("RDMPI_VERBS_TIMEOUT");
    setenv("RDMPI_VERBS_BUF_SIZE", "2m", 1);
    tap_is_int(rd_params_load(err, sizeof(err)), -1, "size above the declared max refused");
    tap_is_str(err, "RDMPI_VERBS_BUF_SIZE='2m' is not in [256, 1048576]", "size range message");
    unsetenv("RDMPI_VERBS_BUF_SIZE");
    setenv("RDMPI_COLL_BCAST", "Linear", 1);
    tap_is_int(rd_params_load(err, sizeof(err)), 0, "enum choice case-blind");
    tap_is_int(rd_param.coll_bcast, RD_COLL_BCAST_LINEAR, "RDMPI_COLL_BCAST=Linear is RD_COLL_BCAST_LINEAR");
    tap_is_int(RD_COLL_BCAST_LINEAR, 4, "constants follow the declared order");
    tap_is_int(RD_COLL_BCAST_COUNT, 6, "and count the choices");
    setenv("RDMPI_COLL_BCAST", "tree", 1);
    tap_is_int(rd_params_load(err, sizeof(err)), -1, "unknown enum choice refused");
    tap_is_str(err, "RDMPI_COLL_BCAST='tree' is not one of auto|binomial|scatter_allgather|pipeline|linear|hierarchical",
               "message lists the choices in lower case");
    unsetenv("RDMPI_COLL_BCAST");
    tap_is_int(rd_param.verbs_cm, RD_VERBS_CM_AUTO, "default enum is its constant");

    /* the tools' table: known to the library, loaded only by the tools */
    const struct rd_param_desc *d = rd_param_find("RDMPI_RRUN_SRUN");
    tap_ok(d && d->type == RD_PT_BOOL, "RDMPI_RRUN_SRUN is declared (a bool)");
    tap_ok(rd_param_find("RDMPI_NOPE") == NULL, "an undeclared name is not found");
    setenv("RDMPI_RRUN_SRUN", "no", 1);
    tap_is_int(rd_params_load(err, sizeof(err)), 0, "the library knows the tools' names (no warning)");
    tap_is_int(rd_tool_param.rrun_srun, 0, "the library does not load them (still unset)");
    tap_is_int(rd_params_load_tools(err, sizeof(err)), 0, "the tools load theirs");
    tap_is_int(rd_tool_param.rrun_srun, 0, "RDMPI_RRUN_SRUN=no read");
    unsetenv("RDMPI_RRUN_SRUN");
    tap_is_int(rd_params_load_tools(err, sizeof(err)), 0, "defaults of the tools' table");
    tap_is_int(rd_tool_param.rrun_srun, 1, "default RDMPI_RRUN_SRUN is 1");

    /* logging levels and components */
    tap_is_int(rd_log_configure("debug:job,p2p"), 0, "log spec accepted");
    tap_is_int(rd_log_threshold, RD_LOG_DEBUG, "threshold debug");
    tap_ok(rd_log_component_enabled("job"), "component job enabled");
    tap_ok(rd_log_component_enabled("p2p"), "component p2p enabled");
    tap_ok(!rd_log_component_enabled("shm"), "component shm not enabled");
    tap_ok(!rd_log_component_enabled("jo"), "no prefix match of components");
    tap_is_int(rd_log_configure("TRACE"), 0, "level names are case-blind");
    tap_is_int(rd_log_threshold, RD_LOG_TRACE, "threshold trace");
    tap_ok(rd_log_component_enabled("shm"), "no component list: all enabled");
    tap_is_int(rd_log_configure("loud"), -1, "unknown level refused");
    tap_is_int(rd_log_threshold, RD_LOG_TRACE, "refused spec leaves the threshold");
    return tap_done();
}
