/*
 * shmpi_generics_rma.h - C11 generic names, RMA chapter (see
 * shmpi_generics.h): put, p, iput, get, g, iget, put_nbi, get_nbi, each
 * with an optional leading shmem_ctx_t.  Uses the selection machinery of
 * shmpi_generics_amo.h (SHMPI_GA_SELECT over a type table, and
 * SHMPI_GA_OVERLOAD for the ctx forms), which shmpi_generics.h includes
 * first.
 */
#ifndef SHMPI_GENERICS_RMA_H
#define SHMPI_GENERICS_RMA_H

#define SHMPI_GA_PICK6(_1, _2, _3, _4, _5, _6, _7, NAME, ...) NAME

/* The routine for the type that the pointer argument P points to. */
#define shmpi_ga_rma_(OP, P) SHMPI_GA_SELECT(*(P), shmem_, OP, SHMPI_RMA_TYPES)
#define shmpi_gac_rma_(OP, P) SHMPI_GA_SELECT(*(P), shmem_ctx_, OP, SHMPI_RMA_TYPES)

/* (dest, source, nelems, pe) */
#define shmpi_ga_put(d, s, n, p) shmpi_ga_rma_(put, d)(d, s, n, p)
#define shmpi_gac_put(c, d, s, n, p) shmpi_gac_rma_(put, d)(c, d, s, n, p)
#define shmem_put(...) SHMPI_GA_OVERLOAD(4, shmpi_ga_put, shmpi_gac_put, __VA_ARGS__)
#define shmpi_ga_get(d, s, n, p) shmpi_ga_rma_(get, d)(d, s, n, p)
#define shmpi_gac_get(c, d, s, n, p) shmpi_gac_rma_(get, d)(c, d, s, n, p)
#define shmem_get(...) SHMPI_GA_OVERLOAD(4, shmpi_ga_get, shmpi_gac_get, __VA_ARGS__)
#define shmpi_ga_put_nbi(d, s, n, p) shmpi_ga_rma_(put_nbi, d)(d, s, n, p)
#define shmpi_gac_put_nbi(c, d, s, n, p) shmpi_gac_rma_(put_nbi, d)(c, d, s, n, p)
#define shmem_put_nbi(...) SHMPI_GA_OVERLOAD(4, shmpi_ga_put_nbi, shmpi_gac_put_nbi, __VA_ARGS__)
#define shmpi_ga_get_nbi(d, s, n, p) shmpi_ga_rma_(get_nbi, d)(d, s, n, p)
#define shmpi_gac_get_nbi(c, d, s, n, p) shmpi_gac_rma_(get_nbi, d)(c, d, s, n, p)
#define shmem_get_nbi(...) SHMPI_GA_OVERLOAD(4, shmpi_ga_get_nbi, shmpi_gac_get_nbi, __VA_ARGS__)

/* (dest, value, pe) and (source, pe) */
/* (the pe parameter is not called p here: it would replace the OP name) */
#define shmpi_ga_p(d, v, pe) shmpi_ga_rma_(p, d)(d, v, pe)
#define shmpi_gac_p(c, d, v, pe) shmpi_gac_rma_(p, d)(c, d, v, pe)
#define shmem_p(...) SHMPI_GA_OVERLOAD(3, shmpi_ga_p, shmpi_gac_p, __VA_ARGS__)
#define shmpi_ga_g(s, pe) shmpi_ga_rma_(g, s)(s, pe)
#define shmpi_gac_g(c, s, pe) shmpi_gac_rma_(g, s)(c, s, pe)
#define shmem_g(...) SHMPI_GA_OVERLOAD(2, shmpi_ga_g, shmpi_gac_g, __VA_ARGS__)

/* (dest, source, dst, sst, nelems, pe) */
#define shmpi_ga_iput(d, s, ds, ss, n, p) shmpi_ga_rma_(iput, d)(d, s, ds, ss, n, p)
#define shmpi_gac_iput(c, d, s, ds, ss, n, p) shmpi_gac_rma_(iput, d)(c, d, s, ds, ss, n, p)
#define shmem_iput(...) SHMPI_GA_OVERLOAD(6, shmpi_ga_iput, shmpi_gac_iput, __VA_ARGS__)
#define shmpi_ga_iget(d, s, ds, ss, n, p) shmpi_ga_rma_(iget, d)(d, s, ds, ss, n, p)
#define shmpi_gac_iget(c, d, s, ds, ss, n, p) shmpi_gac_rma_(iget, d)(c, d, s, ds, ss, n, p)
#define shmem_iget(...) SHMPI_GA_OVERLOAD(6, shmpi_ga_iget, shmpi_gac_iget, __VA_ARGS__)

/* OpenSHMEM 1.6: (dest, source, dst, sst, bsize, nblocks, pe) */
#define shmpi_ga_ibput(d, s, ds, ss, b, n, p) shmpi_ga_rma_(ibput, d)(d, s, ds, ss, b, n, p)
#define shmpi_gac_ibput(c, d, s, ds, ss, b, n, p) shmpi_gac_rma_(ibput, d)(c, d, s, ds, ss, b, n, p)
#define shmem_ibput(...) SHMPI_GA_OVERLOAD(7, shmpi_ga_ibput, shmpi_gac_ibput, __VA_ARGS__)
#define shmpi_ga_ibget(d, s, ds, ss, b, n, p) shmpi_ga_rma_(ibget, d)(d, s, ds, ss, b, n, p)
#define shmpi_gac_ibget(c, d, s, ds, ss, b, n, p) shmpi_gac_rma_(ibget, d)(c, d, s, ds, ss, b, n, p)
#define shmem_ibget(...) SHMPI_GA_OVERLOAD(7, shmpi_ga_ibget, shmpi_gac_ibget, __VA_ARGS__)

#endif /* SHMPI_GENERICS_RMA_H */
