# Completes a command line as bash does on TAB and prints what it offers, one per line.
# Usage: bash complete.bash SCRIPT 'moya-cli call …'; a line ending in a space completes a
# new, empty word. moya-cli must be on PATH.
source "$1"
line=$2
read -ra COMP_WORDS <<< "$line"
[[ "$line" == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMP_LINE=$line
COMP_POINT=${#line}
_moya-cli moya-cli "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
printf '%s\n' "${COMPREPLY[@]}"
