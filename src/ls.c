/* placeholder, replaced by the real program */
#include <config.h>
#include "ls.h"
int main (void) { return 0; }
