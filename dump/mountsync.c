/*
 * mountsync.c - flush a mounted file system before its device is read.
 *
 * Data a program has written but the kernel has not yet sent to the disk
 * (ext4 even delays choosing its blocks) is invisible to anybody reading
 * the device, so a dump of a mounted file system would archive a file
 * written a second ago as empty.  Before the device is opened, the file
 * system mounted from it is therefore flushed with syncfs(2), which needs
 * no privilege.  The mount is found by device number in
 * /proc/self/mountinfo, whatever name the operand used; an image file is
 * followed through the loop devices that serve it (their backing_file in
 * sysfs).  See doc/design.md, "Coherent reads".
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "mountsync.h"
#include "optr.h"

#define MOUNTINFO_PATH "/proc/self/mountinfo"
#define SYS_BLOCK      "/sys/block"
#define LOOP_PREFIX    "loop"
#define DELETED_SUFFIX " (deleted)"
#define LINE_LEN       8192
#define MOUNT_DEV_FIELD                                                        \
	2 /* 0-based: id, parent, major:minor, root, mount point */
#define MOUNT_DIR_FIELD 4

/* Undo mountinfo's octal escapes (\040 for a space) in place. */
static void
unescape(char *s)
{
	char *out = s;

	while (*s != '\0') {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
					(s[3] - '0'));
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

/* The mount point of the first mount of device dev (malloced), or NULL. */
static char *
mount_of(dev_t dev)
{
	FILE *f = fopen(MOUNTINFO_PATH, "re");
	char line[LINE_LEN];
	char *found = NULL;

	if (f == NULL)
		return NULL;
	while (found == NULL && fgets(line, sizeof(line), f) != NULL) {
		char *field[MOUNT_DIR_FIELD + 1], *save = NULL, *p = line;
		unsigned maj, min;
		int i;

		for (i = 0; i <= MOUNT_DIR_FIELD; i++, p = NULL)
			if ((field[i] = strtok_r(p, " \n", &save)) == NULL)
				break;
		if (i <= MOUNT_DIR_FIELD ||
		    sscanf(field[MOUNT_DEV_FIELD], "%u:%u", &maj, &min) != 2 ||
		    makedev(maj, min) != dev)
			continue;
		unescape(field[MOUNT_DIR_FIELD]);
		found = strdup(field[MOUNT_DIR_FIELD]);
	}
	fclose(f);
	return found;
}

static void
flush_mount(const char *device, dev_t dev)
{
	char *dir = mount_of(dev);
	int fd;

	if (dir == NULL)
		return;
	msg("%s is mounted on %s: flushing it to disk first (syncfs)\n", device,
	    dir);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd == -1 || syncfs(fd) == -1)
		msg("Cannot flush %s: %s; data written since its last "
		    "writeback may be missing\n",
		    dir, strerror(errno));
	if (fd != -1)
		(void)close(fd);
	free(dir);
}

/* Whether the loop device sysfs directory loopdir serves the file st. */
static int
loop_serves(const char *loopdir, const struct stat *st, dev_t *loopdev)
{
	char path[PATH_MAX], text[PATH_MAX];
	struct stat bst;
	unsigned maj, min;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/loop/backing_file", SYS_BLOCK,
		 loopdir);
	f = fopen(path, "re");
	if (f == NULL)
		return 0;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	text[strcspn(text, "\n")] = '\0';
	if (stat(text, &bst) != 0 || bst.st_dev != st->st_dev ||
	    bst.st_ino != st->st_ino)
		return 0;
	snprintf(path, sizeof(path), "%s/%s/dev", SYS_BLOCK, loopdir);
	f = fopen(path, "re");
	if (f == NULL)
		return 0;
	n = (size_t)fscanf(f, "%u:%u", &maj, &min);
	fclose(f);
	if (n != 2)
		return 0;
	*loopdev = makedev(maj, min);
	return 1;
}

/* An image file: flush what is mounted from each loop device on it. */
static void
flush_image(const char *image, const struct stat *st)
{
	DIR *d = opendir(SYS_BLOCK);
	struct dirent *e;
	dev_t loopdev;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL)
		if (strncmp(e->d_name, LOOP_PREFIX, strlen(LOOP_PREFIX)) == 0 &&
		    loop_serves(e->d_name, st, &loopdev))
			flush_mount(image, loopdev);
	closedir(d);
}

void
mountsync_flush(const char *device)
{
	struct stat st;

	if (stat(device, &st) != 0)
		return;
	if (S_ISBLK(st.st_mode))
		flush_mount(device, st.st_rdev);
	else if (S_ISREG(st.st_mode))
		flush_image(device, &st);
}
