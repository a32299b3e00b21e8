#include "list.h"

int ui_list_step(int cur, int d, int count, int wrap)
{
    if (count < 1) return cur;
    if (wrap) return ((cur + d) % count + count) % count;
    const int c = cur + d;
    return c < 0 ? 0 : c > count - 1 ? count - 1 : c;
}

int ui_list_first(int cur, int rows)
{
    return cur - rows + 1 > 0 ? cur - rows + 1 : 0;
}

int ui_scroll_first(int first, int total, int rows)
{
    const int last = total - rows > 0 ? total - rows : 0;
    return first < 0 ? 0 : first > last ? last : first;
}
