/*
 * boot.h — what flowgen says when DPDK refuses to start: DPDK prints its
 * reasons through its log stream and often leaves rte_errno at 0, so
 * flowgen keeps the tail of what DPDK printed during start-up for
 * boot_diagnose (src/core/boot_plan.h, which this header includes: main.c
 * calls both) to turn into one line that says what is wrong and what to do.
 *
 * Context: control, before and during rte_eal_init and the ports' set-up.
 *
 * Included by: control and console.
 */
#ifndef FG_BOOT_H
#define FG_BOOT_H

#include "boot_plan.h"

/*
 * control: from now on DPDK's log goes to standard error as before and
 * its last few kilobytes are also kept for boot_log_tail(). Call before
 * rte_eal_init.
 */
void boot_log_open(void);

/* control: what DPDK logged since boot_log_open (the tail), NUL terminated. */
const char *boot_log_tail(void);

/* control: DPDK's log back to its own stream; the kept tail is dropped. */
void boot_log_close(void);

#endif
