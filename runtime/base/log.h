/* log.h - one logging function with levels and component names.
 *
 * RDMPI_LOG=level[:component,...] turns it on; the check before a call is
 * one integer comparison, so disabled logging costs nothing measurable. */
#ifndef RD_LOG_H
#define RD_LOG_H

#include <stdarg.h>

enum rd_log_level { RD_LOG_ERROR = 0, RD_LOG_WARN, RD_LOG_INFO, RD_LOG_DEBUG, RD_LOG_TRACE };

extern int rd_log_threshold;

/* Parse a RDMPI_LOG value; returns 0, or -1 if the level is unknown. */
int rd_log_configure(const char *spec);
/* The rank printed in messages (-1: none yet). */
void rd_log_set_rank(int rank);
int rd_log_component_enabled(const char *component);
void rd_log_write(int level, const char *component, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void rd_log_vwrite(int level, const char *component, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

#define rd_log(level, component, ...)                                                  \
    do {                                                                               \
        if ((level) <= rd_log_threshold && rd_log_component_enabled(component))        \
            rd_log_write((level), (component), __VA_ARGS__);                           \
    } while (0)

#define rd_error(component, ...) rd_log(RD_LOG_ERROR, component, __VA_ARGS__)
#define rd_warn(component, ...) rd_log(RD_LOG_WARN, component, __VA_ARGS__)
#define rd_info(component, ...) rd_log(RD_LOG_INFO, component, __VA_ARGS__)
#define rd_debug(component, ...) rd_log(RD_LOG_DEBUG, component, __VA_ARGS__)
#define rd_trace(component, ...) rd_log(RD_LOG_TRACE, component, __VA_ARGS__)

#endif
