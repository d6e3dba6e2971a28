/*
 * fork_clone_io.c - the single way dump starts its slaves and writer.
 *
 * clone(SIGCHLD|CLONE_IO) with no new stack behaves like fork() (copy
 * of the address space, SIGCHLD on exit, waitpid works) but shares the
 * I/O context.  The raw system call is used because glibc's clone()
 * wrapper insists on a separate stack; without CLONE_VM the child gets a
 * copy-on-write copy of ours, exactly as with fork().  stdio buffers are
 * flushed first so that the child does not repeat pending output.
 */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#ifdef USE_CLONE_IO
#include <sched.h>
#include <sys/syscall.h>
#endif

#include "compat.h"

pid_t
fork_clone_io(void)
{
	fflush(NULL);
#ifdef USE_CLONE_IO
	{
		long pid =
		    syscall(SYS_clone, (unsigned long)(SIGCHLD | CLONE_IO),
			    NULL, NULL, NULL, 0UL);

		return (pid_t)pid;
	}
#else
	return fork();
#endif
}
