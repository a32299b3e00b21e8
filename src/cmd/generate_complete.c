/* Completion for bash, zsh and fish, made from the tables: the commands,
 * each command's options (rs_cli_opts, as --help) and what each option's
 * argument takes (rs_generate_arg: the variants, types, operations,
 * finishes, counter sets, formats, presets, .jsonl recordings, .cu
 * kernels), and the words after a command's options. */
#include <string.h>

#include "cmd/generate.h"

/* s in single quotes, for a shell: each ' closed, escaped, reopened (sh);
 * or \' inside (fish). */
static void quoted(FILE *f, const char *s, int fish)
{
    fputc('\'', f);
    for (; *s; s++)
        if (*s == '\'')
            fputs(fish ? "\\'" : "'\\''", f);
        else
            fputc(*s, f);
    fputc('\'', f);
}

static int options_of(const rs_command *c, rs_cli_opt *opts)
{
    int n = rs_cli_opts(c, opts, RS_CLI_OPTS_MAX), k = 0;
    for (int i = 0; i < n; i++)
        if (!opts[i].hidden) opts[k++] = opts[i];
    return k;
}

/* ---- bash ------------------------------------------------------------------------- */

static void bash_action(FILE *f, rs_complete_kind kind, const char *words, int list)
{
    switch (kind) {
    case RS_COMPLETE_WORDS:
        fprintf(f, "_redscope_words %d ", list);
        quoted(f, words, 0);
        break;
    case RS_COMPLETE_JSONL: fputs("_redscope_files jsonl json", f); break;
    case RS_COMPLETE_WORDS_JSONL:
        fputs("_redscope_words 0 ", f);
        quoted(f, words, 0);
        fputs("; local had=(\"${COMPREPLY[@]}\"); _redscope_files jsonl json; "
              "COMPREPLY+=(\"${had[@]}\")",
              f);
        break;
    case RS_COMPLETE_CU: fputs("_redscope_files cu cuh", f); break;
    case RS_COMPLETE_PLOT: fputs("_redscope_files svg png", f); break;
    case RS_COMPLETE_PRESET: fputs("_redscope_presets", f); break;
    case RS_COMPLETE_FILE: fputs("_redscope_files", f); break;
    default: fputs("COMPREPLY=()", f); break;
    }
}

static const char bash_head[] =
    "# bash completion for redscope: made by redscope --generate bash from its tables.\n"
    "# words: the words offered; a list (1) completes the item after the last comma\n"
    "_redscope_words() {\n"
    "    local list=$1 words=$2 pre=\n"
    "    [ \"$list\" = 1 ] && [[ $cur == *,* ]] && pre=${cur%,*}, && cur=${cur##*,}\n"
    "    local IFS=$'\\n'\n"
    "    COMPREPLY=($(compgen -P \"$pre\" -W \"${words// /$'\\n'}\" -- \"$cur\"))\n"
    "    [ \"$list\" = 1 ] && compopt -o nospace 2>/dev/null\n"
    "}\n"
    "# files ending in one of the suffixes given (any file without one), and folders\n"
    "_redscope_files() {\n"
    "    local IFS=$'\\n' ext\n"
    "    compopt -o filenames 2>/dev/null\n"
    "    COMPREPLY=($(compgen -d -- \"$cur\"))\n"
    "    [ $# = 0 ] && COMPREPLY+=($(compgen -f -- \"$cur\"))\n"
    "    for ext in \"$@\"; do COMPREPLY+=($(compgen -f -X \"!*.$ext\" -- \"$cur\")); done\n"
    "}\n"
    "_redscope_presets() {\n"
    "    local IFS=$'\\n'\n"
    "    COMPREPLY=($(compgen -W \"$(\"${COMP_WORDS[0]}\" presets --format csv 2>/dev/null |\n"
    "        tail -n +2 | cut -d, -f1 | tr -d '\"')\" -- \"$cur\"))\n"
    "    local had=(\"${COMPREPLY[@]}\")\n"
    "    _redscope_files ini\n"
    "    COMPREPLY=(\"${had[@]}\" \"${COMPREPLY[@]}\")\n"
    "}\n";

/* case "$cmd:$prev" patterns: each option's argument */
static void bash_args(FILE *f, const rs_command *c, const rs_cli_opt *opts, int n)
{
    for (int i = 0; i < n; i++) {
        char words[2048];
        const rs_complete_kind kind = rs_generate_arg(&opts[i], words, sizeof words);
        if (!opts[i].arg) continue;
        const char *eq = opts[i].arg_optional ? "=" : ""; /* --metrics=SET only */
        fprintf(f, "        %s:--%s%s", c->name, opts[i].name, eq);
        if (opts[i].short_opt && !opts[i].arg_optional)
            fprintf(f, "|%s:-%c", c->name, opts[i].short_opt);
        fputs(") ", f);
        bash_action(f, kind, words, rs_generate_list(&opts[i]));
        fputs("; return ;;\n", f);
    }
}

static void bash_options(FILE *f, const rs_command *c, const rs_cli_opt *opts, int n)
{
    fprintf(f, "        %s) opts=", c->name);
    char all[4096] = "";
    for (int i = 0; i < n; i++) {
        char one[64];
        snprintf(one, sizeof one, "%s--%s", i ? " " : "", opts[i].name);
        if (strlen(all) + strlen(one) + 4 < sizeof all) strcat(all, one);
        if (opts[i].short_opt) snprintf(one, sizeof one, " -%c", opts[i].short_opt);
        if (opts[i].short_opt && strlen(all) + strlen(one) + 1 < sizeof all) strcat(all, one);
    }
    quoted(f, all, 0);
    fputs(" ;;\n", f);
}

void rs_generate_bash(FILE *f)
{
    rs_cli_opt opts[RS_CLI_OPTS_MAX];
    fputs(bash_head, f);
    fputs("_redscope() {\n    local cur=${COMP_WORDS[COMP_CWORD]} prev= cmd=explore opts\n"
          "    [ \"$COMP_CWORD\" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD-1]}\n"
          "    # --metrics=SET: bash splits at the '='\n"
          "    if [ \"$prev\" = = ] && [ \"$COMP_CWORD\" -gt 1 ]; then\n"
          "        prev=${COMP_WORDS[COMP_CWORD-2]}=\n"
          "    elif [ \"$cur\" = = ]; then prev=$prev= cur=; fi\n"
          "    case ${COMP_WORDS[1]} in\n        ",
          f);
    for (int i = 1; i < rs_command_count; i++)
        fprintf(f, "%s%s", i > 1 ? "|" : "", rs_commands[i]->name);
    fputs(") [ \"$COMP_CWORD\" -gt 1 ] && cmd=${COMP_WORDS[1]} ;;\n    esac\n"
          "    case \"$cmd:$prev\" in\n",
          f);
    for (int i = 0; i < rs_command_count; i++)
        bash_args(f, rs_commands[i], opts, options_of(rs_commands[i], opts));
    fputs("    esac\n    case $cmd in\n", f);
    for (int i = 0; i < rs_command_count; i++)
        bash_options(f, rs_commands[i], opts, options_of(rs_commands[i], opts));
    fputs("    esac\n    if [[ $cur == -* ]]; then\n"
          "        COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
          "    elif [ \"$COMP_CWORD\" = 1 ] || { [ \"$COMP_CWORD\" = 2 ] && "
          "[ \"${COMP_WORDS[1]}\" = help ]; }; then\n        COMPREPLY=($(compgen -W '",
          f);
    for (int i = 1; i < rs_command_count; i++)
        fprintf(f, "%s%s", i > 1 ? " " : "", rs_commands[i]->name);
    fputs(" help' -- \"$cur\"))\n    else\n        case $cmd in\n", f);
    for (int i = 0; i < rs_command_count; i++) {
        const rs_complete_kind w = rs_generate_word(rs_commands[i]);
        if (w == RS_COMPLETE_NONE) continue;
        fprintf(f, "            %s) ", rs_commands[i]->name);
        bash_action(f, w, "", 0);
        fputs(" ;;\n", f);
    }
    fputs("        esac\n    fi\n}\ncomplete -F _redscope redscope\n", f);
}

/* ---- zsh --------------------------------------------------------------------------- */

/* a description inside _arguments' [...]: its brackets, colons and quotes escaped */
static void zsh_text(FILE *f, const char *s, size_t max)
{
    if (strlen(s) > max) /* a long one cut after its last whole word */
        while (max > 1 && s[max] != ' ') max--;
    for (size_t i = 0; s[i] && i < max; i++) {
        if (s[i] == '\'')
            fputs("'\\''", f);
        else {
            if (strchr("[]:\\", s[i])) fputc('\\', f);
            fputc(s[i], f);
        }
    }
}

static void zsh_action(FILE *f, rs_complete_kind kind, const char *words, int list)
{
    switch (kind) {
    case RS_COMPLETE_WORDS:
        if (list)
            fprintf(f, "_sequence compadd - %s", words);
        else
            fprintf(f, "(%s)", words);
        break;
    case RS_COMPLETE_JSONL: fputs("_files -g \"*.(jsonl|json)\"", f); break;
    case RS_COMPLETE_WORDS_JSONL:
        fprintf(f, "{compadd - %s; _files -g \"*.(jsonl|json)\"}", words);
        break;
    case RS_COMPLETE_CU: fputs("_files -g \"*.(cu|cuh)\"", f); break;
    case RS_COMPLETE_PLOT: fputs("_files -g \"*.(svg|png)\"", f); break;
    case RS_COMPLETE_PRESET: fputs("_redscope_presets", f); break;
    case RS_COMPLETE_FILE: fputs("_files", f); break;
    default: fputs(" ", f); break;
    }
}

static void zsh_option(FILE *f, const rs_cli_opt *o)
{
    char words[2048];
    const rs_complete_kind kind = rs_generate_arg(o, words, sizeof words);
    const char *form = !o->arg ? "" : o->arg_optional ? "=-" : "=";
    fputs("        '", f);
    if (o->short_opt)
        fprintf(f, "(-%c --%s)'{-%c%s,--%s%s}'", o->short_opt, o->name, o->short_opt,
                o->arg ? "+" : "", o->name, form);
    else
        fprintf(f, "--%s%s", o->name, form);
    fputc('[', f);
    zsh_text(f, o->help, 100);
    fputc(']', f);
    if (o->arg) {
        fputc(':', f);
        zsh_text(f, o->arg, 32);
        fputc(':', f);
        zsh_action(f, kind, words, rs_generate_list(o));
    }
    fputs("' \\\n", f);
}

static const char zsh_head[] =
    "#compdef redscope\n# zsh completion for redscope: made by redscope --generate zsh from its "
    "tables.\n_redscope_presets() {\n    local -a names\n"
    "    names=(${(f)\"$(${_redscope_exe:-redscope} presets --format csv 2>/dev/null |\n"
    "        tail -n +2 | cut -d, -f1 | tr -d '\"')\"})\n"
    "    compadd -a names\n    _files -g '*.ini'\n}\n"
    "_redscope() {\n    local _redscope_exe=$words[1] cmd=explore ret=1\n"
    "    local context state state_descr line\n    typeset -A opt_args\n"
    "    local -a commands\n    commands=(\n";

/* the commands, and which one the line names */
static void zsh_commands(FILE *f)
{
    fputs(zsh_head, f);
    for (int i = 1; i < rs_command_count; i++) {
        fprintf(f, "        '%s:", rs_commands[i]->name);
        zsh_text(f, rs_commands[i]->summary, 80);
        fputs("'\n", f);
    }
    fputs("        'help:a command'\\''s options, as COMMAND --help'\n    )\n"
          "    if (( CURRENT == 3 )) && [[ $words[2] == help ]]; then\n"
          "        _describe -t commands command commands\n        return\n    fi\n"
          "    if (( CURRENT > 2 )) && [[ -n ${commands[(r)$words[2]:*]} ]]; then\n"
          "        cmd=$words[2]; shift words; (( CURRENT-- ))\n    fi\n    case $cmd in\n",
          f);
}

void rs_generate_zsh(FILE *f)
{
    rs_cli_opt opts[RS_CLI_OPTS_MAX];
    zsh_commands(f);
    for (int i = 0; i < rs_command_count; i++) {
        const rs_command *c = rs_commands[i];
        fprintf(f, "    %s)\n        _arguments -s -S \\\n", c->name);
        const int n = options_of(c, opts);
        for (int k = 0; k < n; k++) zsh_option(f, &opts[k]);
        const rs_complete_kind w = rs_generate_word(c);
        if (i == 0) /* the explorer: a command's name first */
            fputs("        '1: :->command'", f);
        else if (w != RS_COMPLETE_NONE) {
            fputs("        '*:file:", f);
            zsh_action(f, w, "", 0);
            fputs("'", f);
        } else
            fputs("       ", f);
        fputs(" && ret=0\n        ;;\n", f);
    }
    fputs("    esac\n    if [[ $state == command ]]; then\n"
          "        _describe -t commands command commands && ret=0\n    fi\n    return ret\n}\n"
          "_redscope \"$@\"\n",
          f);
}

/* ---- fish -------------------------------------------------------------------------- */

static void fish_action(FILE *f, rs_complete_kind kind, const char *words, int list)
{
    switch (kind) {
    case RS_COMPLETE_WORDS:
        if (list) { /* the item after the last comma (names only: no quote inside) */
            fprintf(f, " -x -a '(__redscope_list \"%s\")'", words);
            break;
        }
        fputs(" -x -a ", f);
        quoted(f, words, 1);
        break;
    case RS_COMPLETE_JSONL: fputs(" -x -a '(__redscope_files jsonl json)'", f); break;
    case RS_COMPLETE_WORDS_JSONL: /* names only: no quote inside */
        fprintf(f, " -x -a '%s (__redscope_files jsonl json)'", words);
        break;
    case RS_COMPLETE_CU: fputs(" -x -a '(__redscope_files cu cuh)'", f); break;
    case RS_COMPLETE_PLOT: fputs(" -x -a '(__redscope_files svg png)'", f); break;
    case RS_COMPLETE_PRESET:
        fputs(" -x -a '(redscope presets --format csv 2>/dev/null | tail -n +2 | "
              "string split -f1 , | string trim -c \\\"; __redscope_files ini)'",
              f);
        break;
    case RS_COMPLETE_FILE: fputs(" -r -F", f); break;
    default: fputs(" -x", f); break;
    }
}

void rs_generate_fish(FILE *f)
{
    rs_cli_opt opts[RS_CLI_OPTS_MAX];
    fputs(
        "# fish completion for redscope: made by redscope --generate fish from its tables.\n"
        "function __redscope_files --description 'files with one of the suffixes, folders'\n"
        "    set -l t (commandline -ct)\n    for f in $t*\n"
        "        if test -d $f\n            echo $f/\n        else\n"
        "            for s in $argv\n                string match -q -- \"*.$s\" $f; and echo $f\n"
        "            end\n        end\n    end\nend\n"
        "function __redscope_list --description 'the words, after the list so far'\n"
        "    set -l pre (commandline -ct | string replace -r -- '^--?[^=]*=' '' |\n"
        "        string match -r -- '^.*,')\n"
        "    for w in (string split ' ' -- $argv[1])\n        echo \"$pre$w\"\n    end\nend\n"
        "set -l commands",
        f);
    for (int i = 1; i < rs_command_count; i++) fprintf(f, " %s", rs_commands[i]->name);
    fputs("\ncomplete -c redscope -f\n", f);
    for (int i = 1; i < rs_command_count; i++) {
        fprintf(f,
                "complete -c redscope -n \"not __fish_seen_subcommand_from $commands\" -a %s "
                "-d ",
                rs_commands[i]->name);
        quoted(f, rs_commands[i]->summary, 1);
        fputc('\n', f);
    }
    fputs("complete -c redscope -n \"not __fish_seen_subcommand_from $commands help\" -a help "
          "-d 'a command\\'s options, as COMMAND --help'\n"
          "complete -c redscope -n \"__fish_seen_subcommand_from help\" -a \"$commands\"\n",
          f);
    for (int i = 0; i < rs_command_count; i++) {
        const rs_command *c = rs_commands[i];
        char cond[96];
        if (i == 0)
            snprintf(cond, sizeof cond, "not __fish_seen_subcommand_from $commands");
        else
            snprintf(cond, sizeof cond, "__fish_seen_subcommand_from %s", c->name);
        const int n = options_of(c, opts);
        for (int k = 0; k < n; k++) {
            char words[2048];
            fprintf(f, "complete -c redscope -n \"%s\"", cond);
            if (opts[k].short_opt) fprintf(f, " -s %c", opts[k].short_opt);
            fprintf(f, " -l %s", opts[k].name);
            if (opts[k].arg)
                fish_action(f, rs_generate_arg(&opts[k], words, sizeof words), words,
                            rs_generate_list(&opts[k]));
            fputs(" -d ", f);
            quoted(f, opts[k].help, 1);
            fputc('\n', f);
        }
        const rs_complete_kind w = rs_generate_word(c);
        if (i > 0 && w != RS_COMPLETE_NONE) {
            fprintf(f, "complete -c redscope -n \"%s\"", cond);
            fish_action(f, w, "", 0);
            fputc('\n', f);
        }
    }
}
