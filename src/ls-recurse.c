/* ls-recurse.c -- listing directories (skeleton; completed below).  */

#include <config.h>

#include "ls.h"

/** List directory NAME relative to PARENTFD.  */
void
list_directory (int parentfd _GL_UNUSED, char const *name _GL_UNUSED,
                char const *realname _GL_UNUSED,
                bool command_line_arg _GL_UNUSED)
{
}
