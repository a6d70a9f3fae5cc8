/* params.h - the parameter table (see params.def). */
#ifndef RD_PARAMS_H
#define RD_PARAMS_H

#include <stdio.h>

enum rd_param_type { RD_PT_INT, RD_PT_SIZE, RD_PT_BOOL, RD_PT_STRING, RD_PT_ENUM };

#define RD_PT_TYPE_INT long
#define RD_PT_TYPE_SIZE long
#define RD_PT_TYPE_BOOL long
#define RD_PT_TYPE_ENUM long
#define RD_PT_TYPE_STRING const char *

struct rd_param_values {
#define RD_PARAM(name, type, def, doc) RD_PT_TYPE_##type name;
#include "runtime/base/params.def"
#undef RD_PARAM
};

/* Current values; valid after rd_params_load(). */
extern struct rd_param_values rd_param;

/* Read every RDMPI_* variable. On a bad value, writes a message naming the
 * variable into err (errlen bytes) and returns -1; 0 on success. Unknown
 * RDMPI_* names are reported in err as a warning with return value 1. */
int rd_params_load(char *err, size_t errlen);

/* Print the table (name, type, default, current value, doc). */
void rd_params_print(FILE *out);

/* Parse helpers, exposed for tests. Return 0 on success, -1 on bad input. */
int rd_param_parse_size(const char *s, long *out);
int rd_param_parse_bool(const char *s, long *out);
int rd_param_parse_enum(const char *choices, const char *s, long *out);

#endif
