// SPDX-License-Identifier: GPL-2.0-only
/*
 * Linked into clyde only by `make MPI=1 SANITIZE=1` (GNUmakefile): OpenMPI
 * and the components it dlopens are built without frame pointers, so
 * ASan's fast unwinder loses the stack of their allocations, and the leak
 * suppressions of t/sanitize.supp (ompi_mpi_init, orte_init...) could not
 * match them.  The slow unwinder keeps the whole stack.  Not a test.
 */
const char *__asan_default_options(void);

const char *__asan_default_options(void)
{
	return "fast_unwind_on_malloc=0";
}
