/* ASan builds only (CMake's WITH_ASAN): LeakSanitizer's check at exit
 * reads every writable segment of every loaded library as roots, and
 * libceph-common's .bss is 130 MiB that nothing touched. Each 4 KiB page
 * read faulted in the zero page: about 0.4 s of CPU at every exit, most of
 * a test's cost where a test runs cephbench hundreds of times (exit 2 on
 * bad input, report of a saved record). With MADV_HUGEPAGE on the segments'
 * 2 MiB-aligned middles, those reads map the huge zero page instead (THP in
 * "madvise" or "always" mode; in "never", nothing changes). The leak check
 * itself is unchanged: the same ranges are scanned. */
#include <link.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>

enum { HUGE_PAGE = 2u << 20, WORTH_IT = 2 * HUGE_PAGE };

static int advise_segments(struct dl_phdr_info *info, size_t size, void *unused)
{
	(void)size;
	(void)unused;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W) || ph->p_memsz < WORTH_IT)
			continue;
		uintptr_t begin = info->dlpi_addr + ph->p_vaddr;
		uintptr_t first = (begin + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
		uintptr_t last = (begin + ph->p_memsz) & ~(uintptr_t)(HUGE_PAGE - 1);
		/* advice only: a kernel without THP refuses it, and the scan is
		 * as slow as before */
		if (last > first)
			(void)madvise((void *)first, last - first, MADV_HUGEPAGE);
	}
	return 0;
}

__attribute__((constructor)) static void lsan_scan_cheap(void)
{
	dl_iterate_phdr(advise_segments, NULL);
}
