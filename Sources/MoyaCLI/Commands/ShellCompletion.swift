import ArgumentParser
import MoyaSpec

/// Completion of a target's params, which the argument parser's scripts cannot offer: they
/// complete `--` words from `call`'s own options alone, and a target's params live in its
/// spec. `--generate-completion-script` writes the parser's script with one addition per
/// shell, which asks `moya-cli ---params` for the words to offer after `call SERVICE.TARGET`.
enum ShellCompletion {
    /// The hidden entry the scripts call: `---params SHELL INDEX WORD…`, where the words are
    /// the whole command line and INDEX is the one being completed.
    static let entry = "---params"

    /// The shells whose scripts carry the addition.
    enum Shell: String, CaseIterable {
        case bash, zsh, fish
    }

    /// The completion script for `shell`: the argument parser's, with `call`'s completion
    /// wrapped so that it also offers the target's params.
    static func script(for shell: Shell) -> String {
        let generated = MoyaCommand.completionScript(for: CompletionShell(rawValue: shell.rawValue) ?? .bash)
        switch shell {
        case .bash, .zsh:
            // The generated `_moya-cli_call` keeps its body under another name, and the one
            // put before it calls it, then adds the params. It goes among the functions, not
            // at the end: zsh runs an autoloaded script's last lines on the first completion.
            return generated.replacing(
                "\n_moya-cli_call() {\n",
                with: (shell == .bash ? bashAddition : zshAddition) + "__moya-cli_call_options() {\n")
        case .fish:
            return generated + fishAddition
        }
    }

    /// The script a `--generate-completion-script` line asks for, nil for any other line
    /// (or a shell without an addition, which the argument parser answers).
    static func requestedScript(_ arguments: [String]) -> String? {
        guard let first = arguments.first else { return nil }
        let option = "--generate-completion-script"
        let name: String?
        if first == option, arguments.count == 2 {
            name = arguments[1]
        } else if first.hasPrefix(option + "="), arguments.count == 1 {
            name = String(first.dropFirst(option.count + 1))
        } else {
            name = nil
        }
        return name.flatMap(Shell.init(rawValue:)).map(script(for:))
    }

    /// What to offer for the word at `index` of a `call` line: `--NAME` for each of the
    /// target's params not given yet (an array's again), when the word starts with `-`; the
    /// keys of an enum param, or `true` and `false`, as the value after its `--NAME`. A param
    /// whose name is one of `call`'s options is given as `NAME=VALUE`, and is not offered.
    /// zsh's lines are `word:description` and fish's `word<TAB>description`.
    static func candidates(shell: Shell, index: Int, words: [String]) -> [String] {
        guard words.count > 1, words[1] == "call", index >= 2 else { return [] }
        let current = index < words.count ? words[index] : ""
        let before = Array(words[2..<min(index, words.count)])
        guard let target = target(in: before, specs: CallCommand.specPaths(in: words)) else { return [] }
        if let previous = before.last, previous.hasPrefix("--"), !previous.contains("="),
            let param = target.param(named: String(previous.dropFirst(2))),
            !CallArguments.ownNames.contains(param.name)
        {
            let values: [String]
            switch param.elementType {
            case .enumeration(let cases): values = cases.map(\.key)
            case .bool: values = ["true", "false"]
            default: values = []
            }
            return values.filter { $0.hasPrefix(current) }.map { line($0, nil, shell) }
        }
        guard current.hasPrefix("-") else { return [] }
        let given = Set(before.compactMap(givenName))
        return target.params
            .filter { !CallArguments.ownNames.contains($0.name) && ($0.type.isArray || !given.contains($0.name)) }
            .map { ("--" + $0.name, $0) }
            .filter { $0.0.hasPrefix(current) }
            .map { line($0.0, summary(of: $0.1), shell) }
    }

    /// The first word of the line that names a target of the specs, lazily loaded.
    private static func target(in words: [String], specs: [String]) -> TargetSpec? {
        let options = SpecOptions(naming: specs)
        for word in words where !word.hasPrefix("-") && word.contains(".") && !word.contains("/") {
            // Completion reads no environment: a target's params do not depend on it.
            if let (_, target) = try? options.loadTarget(word, lazily: true, readingEnvironment: false) {
                return target
            }
        }
        return nil
    }

    /// The param a word gives: `--NAME`, `--NAME=VALUE` or `NAME=VALUE`.
    private static func givenName(_ word: String) -> String? {
        let body = word.hasPrefix("--") ? word.dropFirst(2) : Substring(word)
        let name = body.prefix { $0 != "=" }
        guard !name.isEmpty, word.hasPrefix("--") || name.count < body.count else { return nil }
        return String(name)
    }

    /// A param's type, and what it means when the spec says.
    private static func summary(of param: ParamSpec) -> String {
        let kind = param.isRequired ? "\(param.type), required" : "\(param.type)"
        guard let description = param.description, !description.isEmpty else { return kind }
        return kind + ": " + description
    }

    /// One line of output: the word alone for bash, with its description for zsh and fish,
    /// each on one line, with zsh's `:` in the word escaped. Every other control character a
    /// spec's text holds is escaped (`\u{1b}`) for every shell: zsh prints a description as
    /// it is, so an escape sequence in it would drive the terminal (a clipboard write, a
    /// title, a cleared screen).
    private static func line(_ word: String, _ description: String?, _ shell: Shell) -> String {
        let oneLine = { (text: String) in
            TerminalText.escapingControls(
                text.split(whereSeparator: \.isNewline).joined(separator: " ").replacing("\t", with: " "))
        }
        switch shell {
        case .bash:
            return oneLine(word)
        case .zsh:
            let escaped = oneLine(word).replacing(":", with: "\\:")
            return description.map { escaped + ":" + oneLine($0) } ?? escaped
        case .fish:
            return description.map { oneLine(word) + "\t" + oneLine($0) } ?? oneLine(word)
        }
    }

    private static let bashAddition = """

        # moya-cli: `call SERVICE.TARGET --<TAB>` offers the target's params, and an enum or
        # bool param's values after its name; they come from the target's spec.
        _moya-cli_call() {
            __moya-cli_call_options
            local candidate
            while IFS='' read -r candidate; do
                [[ -n "${candidate}" ]] && COMPREPLY+=("${candidate}")
            done < <("${COMP_WORDS[0]}" ---params bash "${COMP_CWORD}" "${COMP_WORDS[@]}" 2>/dev/null)
        }

        """

    private static let zshAddition = """

        # moya-cli: `call SERVICE.TARGET --<TAB>` offers the target's params, and an enum or
        # bool param's values after its name; they come from the target's spec.
        _moya-cli_call() {
            local -i ret=1
            __moya-cli_call_options && ret=0
            local -a params
            params=("${(@f)"$("${command_name}" ---params zsh "${current_word_index}" "${command_line[@]}" 2>/dev/null)"}")
            params=("${(@)params:#}")
            if [[ "${#params[@]}" -gt 0 ]]; then
                _describe -V param params && ret=0
            fi
            return "${ret}"
        }

        """

    private static let fishAddition = """

        # moya-cli: `call SERVICE.TARGET --<TAB>` offers the target's params, and an enum or
        # bool param's values after its name; they come from the target's spec.
        function __moya-cli_params
            set -l tokens (commandline -opc)
            command $tokens[1] ---params fish (count $tokens) $tokens (commandline -ct) 2>/dev/null
        end

        complete -c 'moya-cli' -n '__fish_seen_subcommand_from call' -fka '(__moya-cli_params)'

        """
}
