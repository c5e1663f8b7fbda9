# patterm: the user's .zprofile with their ZDOTDIR (see .zshenv here).
__patterm_enter
[[ -r ${ZDOTDIR:-$HOME}/.zprofile ]] && builtin source ${ZDOTDIR:-$HOME}/.zprofile
__patterm_leave
