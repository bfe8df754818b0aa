/* Giving freed memory back to the system while a run goes on. */
#ifndef CB_MEM_H
#define CB_MEM_H

/* Return the allocator's free pages to the kernel. Cheap enough for once a
 * second; a no-op where the C library cannot do it. */
void cb_mem_give_back(void);

#endif
