import ArgumentParser

/// How `call` prints a response.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Pretty-print JSON bodies even when stdout is not a terminal.")
    var pretty = false

    @Flag(help: "Print the body byte for byte, even on a terminal.")
    var raw = false

    @Option(
        help: ArgumentHelp(
            "auto, always or never. auto colours on a terminal unless NO_COLOR is set; always also pretty-prints.",
            valueName: "when"))
    var color: ColorChoice = .auto

    @Flag(name: [.customShort("i"), .long], help: "Print the status line and response headers before the body.")
    var include = false

    @Option(
        name: [.customShort("o"), .long],
        help: ArgumentHelp(
            "Write the body to this file instead of stdout; nothing is left behind on failure.", valueName: "file"))
    var output: String?

    @Option(
        help: ArgumentHelp(
            "How a stream's events print: data (each event's data on its own line), json (one JSON object an event), or raw (the bytes as they come).",
            valueName: "format"))
    var events: EventFormat = .data

    func validate() throws {
        if pretty && raw { throw ValidationError("--pretty and --raw cannot go together") }
        if output?.isEmpty == true { throw ValidationError("--output takes a file name") }
    }
}

extension ColorChoice: ExpressibleByArgument {}

/// How `call` prints a stream's events.
enum EventFormat: String, ExpressibleByArgument, CaseIterable {
    /// Each event's data, then a line feed.
    case data
    /// Each event as one JSON object on a line: `{"event":…,"id":…,"data":…}`.
    case json
    /// The body's bytes as they arrive, as for any body.
    case raw
}
