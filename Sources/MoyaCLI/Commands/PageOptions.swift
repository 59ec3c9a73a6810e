import ArgumentParser
import MoyaRuntime

/// How `call --all` follows a target's pages.
struct PageOptions: ParsableArguments {
    @Flag(help: "Follow the target's pages (its paginate:) and print their items as one JSON array.")
    var all = false

    @Option(
        name: .customLong("max-pages"),
        help: ArgumentHelp(
            "With --all, send at most this many pages (default \(SpecClient.PageLimits.defaultMaxPages)).",
            valueName: "n"))
    var maxPages: Int?

    @Flag(help: "With --all, print one item per line (JSON Lines) instead of an array.")
    var lines = false

    @Flag(
        name: .customLong("allow-cross-origin"),
        help: ArgumentHelp(
            "With --all, follow a next URL to another scheme, host or port than the target's, without credentials; "
                + "never from https to http."))
    var allowCrossOrigin = false

    /// The limits the flags set.
    var limits: SpecClient.PageLimits {
        SpecClient.PageLimits(
            maxPages: maxPages ?? SpecClient.PageLimits.defaultMaxPages, allowsCrossOrigin: allowCrossOrigin)
    }

    func validate() throws {
        if !all {
            let given = [
                maxPages.map { _ in "--max-pages" }, lines ? "--lines" : nil,
                allowCrossOrigin ? "--allow-cross-origin" : nil,
            ].compactMap { $0 }
            if let flag = given.first { throw ValidationError("\(flag) goes with --all") }
        }
        if let maxPages, maxPages < 1 { throw ValidationError("--max-pages takes a number from 1, not \(maxPages)") }
    }
}
