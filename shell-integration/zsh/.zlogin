# patterm: the user's .zlogin with their ZDOTDIR (see .zshenv here).
__patterm_enter
[[ -r ${ZDOTDIR:-$HOME}/.zlogin ]] && builtin source ${ZDOTDIR:-$HOME}/.zlogin
__patterm_leave
__patterm_finish
