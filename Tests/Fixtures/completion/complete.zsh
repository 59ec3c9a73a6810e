# Completes a command line as zsh does on TAB and prints what it offers, one per line: an
# interactive zsh on a pseudo-terminal (zpty) loads the script with compinit, is typed the
# line and a TAB, and reports each match its completion adds.
# Usage: zsh -f complete.zsh FOLDER 'moya-cli call …', where FOLDER holds the script as
# _moya-cli. moya-cli must be on PATH.
zmodload zsh/zpty
zpty shell zsh -f -i
zpty -w shell "PROMPT=''"
zpty -w shell "fpath=(${(q)1} \$fpath); autoload -U compinit; compinit -u -D"
# Each match is printed between markers that the echo of these lines does not contain.
zpty -w shell 'compadd () {
  if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi
  local -a matches
  builtin compadd -A matches "$@"
  local match; for match in $matches; do print -r -- "<m""atch>$match</m""atch>"; done
}'
zpty -w shell '__done() { print -r -- "<d""one/>"; exit }; comppostfuncs=(__done)'
zpty -w shell "PATH=${(q)PATH}"
zpty -w shell "$2"$'\t'
output=''
while zpty -r shell line; do
  output+=$line
  [[ $line == *'<done/>'* ]] && break
done
zpty -d shell
print -r -- "$output" | grep -ao '<match>[^<]*</match>' | sed -e 's/^<match>//' -e 's/<\/match>$//'
