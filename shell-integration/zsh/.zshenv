# patterm's shell integration for zsh (see shell-integration/README.md).
#
# patterm points ZDOTDIR here, so zsh reads these four files. Each sources the user's own file with
# ZDOTDIR set back to the user's value, so the user's configuration sees exactly what it would see
# without patterm (frameworks that derive paths from ZDOTDIR, HISTFILE set from it). Once the last
# start-up file has run, ZDOTDIR is the user's for good and the integration's hooks go in.

typeset -g __patterm_dotdir=$ZDOTDIR
# Kept out of the environment: a program run from this shell must not learn the nonce.
typeset -g __patterm_nonce=${PATTERM_SHELL_NONCE-}
builtin unset PATTERM_SHELL_NONCE
if (( ${+PATTERM_USER_ZDOTDIR} )); then typeset -g __patterm_user_dotdir=$PATTERM_USER_ZDOTDIR; fi
builtin unset PATTERM_USER_ZDOTDIR

# ZDOTDIR as the user had it, while their file runs.
__patterm_enter() {
  if (( ${+__patterm_user_dotdir} )); then ZDOTDIR=$__patterm_user_dotdir; else builtin unset ZDOTDIR; fi
}

# Back to this directory so zsh finds the next file here; a ZDOTDIR the user's file set is theirs.
__patterm_leave() {
  if (( ${+ZDOTDIR} )) && [[ $ZDOTDIR != $__patterm_dotdir ]]; then
    typeset -g __patterm_user_dotdir=$ZDOTDIR
  else
    builtin unset __patterm_user_dotdir
  fi
  ZDOTDIR=$__patterm_dotdir
}

# The user's ZDOTDIR for good; a HISTFILE derived from this directory moves to where it belongs.
__patterm_finish() {
  __patterm_enter
  if [[ $HISTFILE == $__patterm_dotdir/* ]]; then HISTFILE=${ZDOTDIR:-$HOME}/${HISTFILE#$__patterm_dotdir/}; fi
  if [[ -o interactive && -n $__patterm_nonce ]]; then builtin source $__patterm_dotdir/patterm.zsh; fi
  builtin unset __patterm_user_dotdir
  builtin unfunction __patterm_enter __patterm_leave __patterm_finish
}

__patterm_enter
[[ -r ${ZDOTDIR:-$HOME}/.zshenv ]] && builtin source ${ZDOTDIR:-$HOME}/.zshenv
__patterm_leave
# A shell that reads no further start-up file is done now.
if [[ ! -o interactive && ! -o login ]] || [[ ! -o rcs ]]; then __patterm_finish; fi
