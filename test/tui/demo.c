/*
 * demo.c — the dashboard against synthetic counters, without DPDK ports:
 * one thread plays a worker (about 1 Mpps on two ports with a slow wave,
 * flows starting and ending) while tui_run draws. `p` stops the worker's
 * counting, `+`/`-` scale its rate, so the keys have visible effects.
 *
 *   test/tui/build.sh && build/tui_demo [nports]
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>

#include "stats.h"
#include "tui.h"

static struct ctr_worker *w;
static int nports = 2;
static volatile int paused, done;
static double scale = 1.0;

static void *worker(void *arg)
{
	struct timespec d = {0, 10 * 1000 * 1000};
	unsigned t = 0;

	(void)arg;
	while (!done) {
		nanosleep(&d, NULL);
		FG_CTR_ADD(w->loop_tsc, 100);
		if (paused)
			continue;
		uint64_t n = (uint64_t)(10000 * scale *
					(1.2 + sin(t++ / 50.0)) / 2.2);

		FG_CTR_ADD(w->busy_tsc, 60);
		for (int p = 0; p < nports; p++) {
			FG_CTR_ADD(w->port[p].tx_pkts, n);
			FG_CTR_ADD(w->port[p].tx_bytes, n * 60);
			FG_CTR_ADD(w->port[p ^ 1].rx_pkts, n - n / 1000);
			FG_CTR_ADD(w->port[p ^ 1].rx_bytes, (n - n / 1000) * 60);
		}
		FG_CTR_ADD(w->client.started, 20);
		FG_CTR_ADD(w->client.established, 20);
		FG_CTR_ADD(w->client.completed, 19);
		FG_CTR_ADD(w->client.failed, 1);
		FG_CTR_ADD(w->server.accepted, 20);
		FG_CTR_ADD(w->server.completed, 20);
		FG_CTR_SET(w->gauge.active_client, 400 + t % 50);
		FG_CTR_SET(w->gauge.active_server, 400 + t % 50);
	}
	return NULL;
}

static bool link_up(int port, bool *up, uint32_t *speed)
{
	*up = port != 3;
	*speed = 10000;
	return true;
}

static int lat(struct stats_lat_row *rows, int max)
{
	int n = FG_MIN(max, 2);

	for (int i = 0; i < n; i++) {
		memset(&rows[i], 0, sizeof(rows[i]));
		snprintf(rows[i].stream, sizeof(rows[i].stream), "lat%d", i);
		rows[i].port = i;
		rows[i].tx = rows[i].rx = 123456;
		rows[i].min_us = 3.1;
		rows[i].avg_us = 5.2;
		rows[i].p50_us = 5.0;
		rows[i].p99_us = 9.9;
		rows[i].p999_us = 14.2;
		rows[i].max_us = 31.0;
		rows[i].jitter_us = 0.8;
	}
	return n;
}

static void pause_toggle(void)
{
	paused = !paused;
}

static void rate_scale(double f)
{
	scale *= f;
}

int main(int argc, char **argv)
{
	struct tui_ops ops = {pause_toggle, rate_scale};
	struct stats_hooks h = {.latency = lat, .port_link = link_up};
	struct timespec t0, t1;
	uint64_t c0, c1;
	pthread_t thr;
	int rc;

	if (argc > 1)
		nports = FG_MAX(2, FG_MIN(FG_MAX_PORTS, atoi(argv[1])));
	w = aligned_alloc(64, sizeof(*w));
	memset(w, 0, sizeof(*w));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	c0 = rte_rdtsc();
	nanosleep(&(struct timespec){0, 100 * 1000 * 1000}, NULL);
	c1 = rte_rdtsc();
	clock_gettime(CLOCK_MONOTONIC, &t1);
	stats_init(w, 1, nports,
		   (uint64_t)((c1 - c0) / ((t1.tv_sec - t0.tv_sec) +
					   (t1.tv_nsec - t0.tv_nsec) / 1e9)));
	stats_set_hooks(&h);
	stats_start();
	pthread_create(&thr, NULL, worker, NULL);
	rc = tui_run(&ops);
	done = 1;
	pthread_join(thr, NULL);
	stats_stop();
	printf("tui_run returned %d\n", rc);
	free(w);
	return rc ? 1 : 0;
}
