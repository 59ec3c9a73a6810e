// A diagnostic's place is a YAML `Mark`, and a spec's text is printed through `TerminalText`:
// a spec's user needs MoyaYAML's names with MoyaSpec's.
@_exported import MoyaYAML
