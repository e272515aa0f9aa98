/*
 * parse.c - parsing of environment values; pure functions, unit-tested.
 */
#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

int shmpi_parse_size(const char *text, size_t *out)
{
    if (!text)
        return -1;
    while (isspace((unsigned char)*text))
        text++;
    if (*text == '-' || *text == '+' || *text == '\0')
        return -1;
    char *end;
    errno = 0;
    double number = strtod(text, &end);
    if (end == text || errno == ERANGE || !isfinite(number) || number <= 0)
        return -1;
    /* strtod accepts hex floats, infinities and exponents; the spec's size
     * is a plain decimal number, so reject anything else. */
    for (const char *p = text; p < end; p++)
        if (!isdigit((unsigned char)*p) && *p != '.')
            return -1;
    double scale = 1;
    switch (*end) { /* only the first suffix character counts (spec) */
    case 'k': case 'K': scale = 0x1p10; break;
    case 'm': case 'M': scale = 0x1p20; break;
    case 'g': case 'G': scale = 0x1p30; break;
    case 't': case 'T': scale = 0x1p40; break;
    case '\0': break;
    default: return -1;
    }
    double bytes = ceil(number * scale);
    if (bytes < 1 || bytes >= 0x1p63)
        return -1;
    *out = (size_t)bytes;
    return 0;
}

int shmpi_parse_count(const char *text, long *out)
{
    if (!text || !isdigit((unsigned char)*text))
        return -1;
    char *end;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (errno == ERANGE || *end != '\0')
        return -1;
    *out = value;
    return 0;
}

