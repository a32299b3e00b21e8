#ifndef RS_UI_H
#define RS_UI_H
#include "../cli.h"
int ui_main(rs_cli *cli);
#endif
