#include <stdio.h>

int
main(void)
{
	puts("hello from the sample tree");
	return 0;
}
