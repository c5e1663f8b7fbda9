# patterm's OSC 133 marks for zsh, sourced once the user's start-up files have run (see .zshenv).
# Marks go out from hooks, never through PS1, so no prompt or theme is touched: A from the last
# precmd, B when line editing starts (after a right prompt is drawn), C from preexec. D comes first
# in PROMPT_EOL_MARK: zsh prints that mark (PROMPT_SP) after a command and before any precmd
# function, and a command's output must end before it. The first precmd sends D again, with the
# directory encoded, for a user who turned PROMPT_SP off. I says whether the line being edited is
# empty, so typing is told apart from a prompt that redraws itself.

typeset -g __patterm_line_empty=1

__patterm_encode() {
  local value=$1
  value=${value//\%/%25}
  value=${value//;/%3B}
  value=${value//$'\a'/%07}
  value=${value//$'\e'/%1B}
  value=${value//$'\n'/%0A}
  value=${value//$'\r'/%0D}
  REPLY=$value
}

# zsh gives every precmd function the command's exit status, so this one need not be first for
# that; it is first so that D comes before anything the user's hooks print.
__patterm_precmd() {
  local __patterm_status=$?
  __patterm_encode $PWD
  builtin printf '\e]133;D;%s;patterm=%s;cwd=%s\a' $__patterm_status $__patterm_nonce $REPLY
  return $__patterm_status
}

typeset -g __patterm_eol_d=$'%{\e]133;D;%?;patterm='$__patterm_nonce$';raw=%/\a%}'

__patterm_prompt_start() {
  local __patterm_status=$?
  # Again at each prompt: a theme or the user may have set the mark since.
  if [[ ${PROMPT_EOL_MARK-} != $__patterm_eol_d* ]]; then
    PROMPT_EOL_MARK=$__patterm_eol_d${PROMPT_EOL_MARK-%B%S%#%s%b}
  fi
  builtin printf '\e]133;A;patterm=%s\a' $__patterm_nonce
  return $__patterm_status
}

__patterm_preexec() {
  __patterm_encode $1
  builtin printf '\e]133;C;patterm=%s;cmd=%s\a' $__patterm_nonce $REPLY
}

__patterm_line_init() {
  __patterm_line_empty=1
  # A continuation line (PS2): the command typed is not complete yet.
  if [[ $CONTEXT == cont ]]; then
    builtin printf '\e]133;B;patterm=%s;k=s\a' $__patterm_nonce
  else
    builtin printf '\e]133;B;patterm=%s\a' $__patterm_nonce
  fi
}

__patterm_line_redraw() {
  local empty=$(( ${#BUFFER} == 0 ))
  (( empty == __patterm_line_empty )) && return
  __patterm_line_empty=$empty
  builtin printf '\e]133;I;patterm=%s;empty=%s\a' $__patterm_nonce $empty
}

PROMPT_EOL_MARK=$__patterm_eol_d${PROMPT_EOL_MARK-%B%S%#%s%b}
precmd_functions=(__patterm_precmd "${precmd_functions[@]}" __patterm_prompt_start)
preexec_functions+=(__patterm_preexec)
builtin autoload -Uz add-zle-hook-widget
add-zle-hook-widget zle-line-init __patterm_line_init
add-zle-hook-widget zle-line-pre-redraw __patterm_line_redraw
