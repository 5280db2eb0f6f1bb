// SPDX-License-Identifier: GPL-2.0-only
/* fsops/clock: monotonic time and process CPU usage. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "t/cmocka-tap.h"
#include "fsops/clock.h"

static void monotonic(void **state)
{
	uint64_t a, b;
	struct timespec ts = { 0, 20 * 1000 * 1000 };

	(void)state;
	a = clock_ns();
	nanosleep(&ts, NULL);
	b = clock_ns();
	assert_true(b - a >= 20 * 1000 * 1000);
	assert_true(b - a < 2000ull * 1000 * 1000);
}

static volatile uint64_t sink;

struct spinner {
	uint64_t len;		/* wall time to spin, ns */
	uint64_t cpu;		/* CPU time the thread got, ns */
};

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void *spin(void *arg)
{
	struct spinner *s = arg;
	uint64_t c0 = thread_cpu_ns(), end = clock_ns() + s->len, x = 1;

	while (clock_ns() < end)
		x = x * 6364136223846793005ull + 1;
	sink = x;
	s->cpu = thread_cpu_ns() - c0;
	return NULL;
}

/*
 * Percent of one CPU used over a busy or idle 0.3 s; *threads_pct gets
 * what the threads themselves were given (CLOCK_THREAD_CPUTIME_ID), which
 * on a loaded machine may be well below 100 % each.
 */
static double measure(int threads, int busy, double *threads_pct)
{
	struct spinner sp[8];
	uint64_t t0, t1, sum = 0;
	struct cpu_usage a, b;
	pthread_t tid[8];
	double elapsed;
	int i;

	for (i = 0; i < threads; i++)
		sp[i] = (struct spinner){ .len = 300 * 1000 * 1000 };
	cpu_usage_now(&a);
	t0 = clock_ns();
	if (busy) {
		for (i = 1; i < threads; i++)
			assert_int_equal(pthread_create(&tid[i], NULL, spin,
							&sp[i]), 0);
		spin(&sp[0]);
		for (i = 1; i < threads; i++)
			pthread_join(tid[i], NULL);
	} else {
		struct timespec ts = { 0, 300 * 1000 * 1000 };

		nanosleep(&ts, NULL);
	}
	t1 = clock_ns();
	cpu_usage_now(&b);
	assert_true(b.user_ns >= a.user_ns && b.sys_ns >= a.sys_ns);
	elapsed = (double)(t1 - t0) / 1e9;
	for (i = 0; busy && i < threads; i++)
		sum += sp[i].cpu;
	*threads_pct = (double)sum / 1e9 / elapsed * 100;
	return cpu_percent(&a, &b, elapsed);
}

static void busy_one_thread(void **state)
{
	double t, p = measure(1, 1, &t);

	(void)state;
	print_message("# one busy thread: %.1f %% (thread got %.1f %%)\n",
		      p, t);
	assert_true(t > 1);
	assert_true(p > t * 0.9 && p < t * 1.1 + 5);
	assert_true(p < 110);
}

/* Whole process: the second thread's CPU time counts too. */
static void busy_two_threads(void **state)
{
	double t, p;

	(void)state;
	p = measure(2, 1, &t);
	print_message("# two busy threads: %.1f %% (threads got %.1f %%)\n",
		      p, t);
	assert_true(t > 1);
	assert_true(p > t * 0.9 && p < t * 1.1 + 5);
	if (sysconf(_SC_NPROCESSORS_ONLN) >= 2)
		assert_true(p < 210);
}

static void idle(void **state)
{
	double t, p = measure(1, 0, &t);

	(void)state;
	print_message("# sleeping: %.1f %%\n", p);
	assert_true(p >= 0 && p < 10);
}

static void percent_arithmetic(void **state)
{
	struct cpu_usage a = { 1000000000, 500000000 };
	struct cpu_usage b = { 2000000000, 1000000000 };

	(void)state;
	/* 1.5 s of CPU over 3 s: 50 % */
	assert_true(cpu_percent(&a, &b, 3.0) > 49.999 &&
		    cpu_percent(&a, &b, 3.0) < 50.001);
	assert_true(cpu_percent(&a, &b, 0) == 0);
	assert_true(cpu_percent(&a, &b, -1) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(monotonic),
		cmocka_unit_test(busy_one_thread),
		cmocka_unit_test(busy_two_threads),
		cmocka_unit_test(idle),
		cmocka_unit_test(percent_arithmetic),
	};

	return tap_run_group_tests(tests);
}
