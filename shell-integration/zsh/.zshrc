# patterm: the user's .zshrc with their ZDOTDIR (see .zshenv here).
__patterm_enter
[[ -r ${ZDOTDIR:-$HOME}/.zshrc ]] && builtin source ${ZDOTDIR:-$HOME}/.zshrc
__patterm_leave
# A login shell still reads .zlogin; any other is done.
[[ -o login ]] || __patterm_finish
