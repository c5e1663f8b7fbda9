# patterm's shell integration for bash (see shell-integration/README.md).
#
# patterm starts bash in POSIX mode with ENV pointing here, so bash reads no start-up file of its
# own; this script turns POSIX mode off and reads the user's files in bash's own order, then adds
# OSC 133 marks carrying the pane's nonce. Nothing of the user's is edited.

builtin set +o posix
builtin shopt -u inherit_errexit 2>/dev/null

if [[ -n "${PATTERM_BASH_ENV+x}" ]]; then builtin export ENV="$PATTERM_BASH_ENV"; else builtin unset ENV; fi
if [[ "${PATTERM_BASH_UNEXPORT_HISTFILE-}" == 1 ]]; then builtin export -n HISTFILE; fi
# Kept out of the environment: a program run from this shell must not learn the nonce.
__patterm_nonce=${PATTERM_SHELL_NONCE-}
builtin unset PATTERM_BASH_ENV PATTERM_BASH_UNEXPORT_HISTFILE PATTERM_SHELL_NONCE

# bash's own start-up sequence (INVOCATION in bash(1)).
if builtin shopt -q login_shell; then
  [[ -r /etc/profile ]] && builtin source /etc/profile
  for __patterm_rc in "$HOME/.bash_profile" "$HOME/.bash_login" "$HOME/.profile"; do
    [[ -r "$__patterm_rc" ]] && { builtin source "$__patterm_rc"; break; }
  done
else
  # The system bashrc's name is a build-time choice of each distribution.
  for __patterm_rc in /etc/bash.bashrc /etc/bash/bashrc; do
    [[ -r "$__patterm_rc" ]] && { builtin source "$__patterm_rc"; break; }
  done
  [[ -r "$HOME/.bashrc" ]] && builtin source "$HOME/.bashrc"
fi
builtin unset __patterm_rc

if [[ -n "$__patterm_nonce" ]]; then
  __patterm_a=$'\e]133;A;patterm='"$__patterm_nonce"$'\a'
  __patterm_b=$'\e]133;B;patterm='"$__patterm_nonce"$'\a'
  __patterm_c=$'\e]133;C;patterm='"$__patterm_nonce"$'\a'
  # B of a continuation prompt (PS2): the line typed is not complete yet.
  __patterm_b2=$'\e]133;B;patterm='"$__patterm_nonce"$';k=s\a'
  __patterm_hist=

  # Percent-encodes what would end or split a mark's field.
  __patterm_encode() {
    local value=$1
    value=${value//%/%25}
    value=${value//;/%3B}
    value=${value//$'\a'/%07}
    value=${value//$'\e'/%1B}
    value=${value//$'\n'/%0A}
    value=${value//$'\r'/%0D}
    __patterm_encoded=$value
  }

  # First in PROMPT_COMMAND: the command's exit status, before anything else can change it.
  __patterm_precmd() {
    local __patterm_status=$?
    if [[ -n "$__patterm_hist" ]] && (( HISTCMD > __patterm_hist )); then
      # The lines history took since the last prompt: the command as typed.
      builtin printf '\e]133;E;patterm=%s;cmd=' "$__patterm_nonce"
      builtin fc -ln "-$(( HISTCMD - __patterm_hist ))" -1 2>/dev/null
      builtin printf '\a'
    fi
    __patterm_hist=$HISTCMD
    __patterm_encode "$PWD"
    builtin printf '\e]133;D;%s;patterm=%s;cwd=%s\a' "$__patterm_status" "$__patterm_nonce" "$__patterm_encoded"
    return "$__patterm_status"
  }

  # Last in PROMPT_COMMAND: the prompt may have been rebuilt by the user's hooks (starship), so
  # the marks go around whatever PS1 is now. $? passes through for the prompt's own use.
  __patterm_prompt() {
    local __patterm_status=$?
    if [[ -z "${__patterm_ps1+x}" || "${PS1-}" != "$__patterm_ps1" ]]; then
      local bare=${PS1-}
      bare=${bare//'\[${__patterm_a}\]'/}
      bare=${bare//'\[${__patterm_b}\]'/}
      if builtin shopt -q promptvars; then
        PS1='\[${__patterm_a}\]'"$bare"'\[${__patterm_b}\]'
      else
        PS1="\\[$__patterm_a\\]$bare\\[$__patterm_b\\]"
      fi
      __patterm_ps1=$PS1
    fi
    if [[ -z "${__patterm_ps2+x}" || "${PS2-}" != "$__patterm_ps2" ]]; then
      local bare2=${PS2-}
      bare2=${bare2//'\[${__patterm_b2}\]'/}
      if builtin shopt -q promptvars; then PS2="$bare2"'\[${__patterm_b2}\]'; else PS2="$bare2\\[$__patterm_b2\\]"; fi
      __patterm_ps2=$PS2
    fi
    if [[ -z "${__patterm_ps0+x}" || "${PS0-}" != "$__patterm_ps0" ]]; then
      local bare0=${PS0-}
      bare0=${bare0//'${__patterm_c}'/}
      if builtin shopt -q promptvars; then PS0='${__patterm_c}'"$bare0"; else PS0="$__patterm_c$bare0"; fi
      __patterm_ps0=$PS0
    fi
    return "$__patterm_status"
  }

  # An array PROMPT_COMMAND runs in order from bash 5.1; before that only its first element does.
  if [[ "${PROMPT_COMMAND@a}" == *a* ]] && (( BASH_VERSINFO[0] > 5 || (BASH_VERSINFO[0] == 5 && BASH_VERSINFO[1] >= 1) )); then
    PROMPT_COMMAND=(__patterm_precmd "${PROMPT_COMMAND[@]}" __patterm_prompt)
  else
    PROMPT_COMMAND=$'__patterm_precmd\n'"${PROMPT_COMMAND-}"$'\n__patterm_prompt'
  fi
fi
