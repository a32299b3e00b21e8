/* What the terminal can do, from its terminfo entry: apart, because
 * <term.h> defines names (lines, columns) the other files use. */
#include <curses.h>
#include <term.h>

#include "ui.h"

int ui_term_moves_cursor(void)
{
    const char *cup = tigetstr("cup");
    return cup && cup != (char *)-1;
}
