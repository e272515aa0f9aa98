# env_table.awk: the rows of env_table in src/runtime/env.c, the one table of
# environment variables, as "NAME<TAB>ALIAS<TAB>DEFAULT<TAB>MEANING" lines in
# order (ALIAS "-" when NULL; a default given by a #define'd string is resolved).
#   awk -f tools/env_table.awk src/runtime/env.c
# tests/env_table.test compares them with README's table; the build makes
# shmpi_info's table and the shmpi(7) man page from them.

/^#define [A-Z_]+ "/ { v = $0; sub(/^#define [A-Z_]+ "/, "", v); sub(/".*/, "", v); macro[$2] = v }
/env_table\[\] = \{/ { intable = 1; next }
intable && /^\};/ { intable = 0 }
intable { text = text " " $0 }
END {
    n = length(text); field = ""; nf = 0; instr = 0; inentry = 0
    for (i = 1; i <= n; i++) {
        c = substr(text, i, 1)
        if (instr) {
            if (c == "\\") { i++; field = field substr(text, i, 1) }
            else if (c == "\"") instr = 0
            else field = field c
            continue
        }
        if (!inentry) { if (c == "{") { inentry = 1; nf = 0; field = ""; isstr = 0 } continue }
        if (c == "\"") { instr = 1; isstr = 1 }
        else if (c == "," || c == "}") {
            if (!isstr && (field in macro)) field = macro[field]
            f[++nf] = field; field = ""; isstr = 0
            if (c == "}") {
                inentry = 0
                printf "%s\t%s\t%s\t%s\n", f[1], (f[2] == "NULL" ? "-" : f[2]), f[4], f[5]
            }
        } else if (c != " ") field = field c
    }
}