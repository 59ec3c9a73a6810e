import ArgumentParser
import MoyaCommandSupport
import MoyaCoverage
import MoyaRuntime
import MoyaSpec

/// `--coverage FILE` and `--coverage-min PERCENT`, for `check` and `run`.
struct CoverageOptions: ParsableArguments {
    @Option(
        name: .customLong("coverage"),
        help: ArgumentHelp(
            "Write how much of the services the run exercised to this file, as JSON (docs/coverage.md).",
            valueName: "file"))
    var file: String?

    @Option(
        name: .customLong("coverage-min"),
        help: ArgumentHelp(
            "Exit 1 when the run covers less than this share of the declared statuses.", valueName: "percent"))
    var minimum: Double?

    func validate() throws {
        if let minimum, !(minimum >= 0 && minimum <= 100) {
            throw ValidationError("--coverage-min takes a percentage from 0 to 100")
        }
    }

    /// Whether the run counts coverage at all.
    var isEnabled: Bool { file != nil || minimum != nil }

    /// The run's coverage, its file opened before anything is sent; nil when not asked for.
    func start(services: [ServiceSpec]) throws -> CoverageRun? {
        guard isEnabled else { return nil }
        return CoverageRun(
            recorder: CoverageRecorder(services: services), report: try file.map(CheckCommand.openReport),
            minimum: minimum)
    }
}

/// One run's coverage: what counts it, the file it is written to, and the gate.
struct CoverageRun {
    let recorder: CoverageRecorder
    let report: CheckCommand.Report?
    let minimum: Double?

    /// The figures so far.
    var coverage: Coverage { recorder.coverage }

    /// Writes the file; a destination the command did not finish is discarded.
    func write(_ coverage: Coverage) throws {
        guard let report else { return }
        try CheckCommand.write(coverage.report, to: report)
    }

    /// The JUnit gate's case, when there is a gate.
    func gate(_ coverage: Coverage) -> CoverageGate? {
        minimum.map { CoverageGate(minimum: $0, coverage: coverage) }
    }

    /// The failure the gate ends the run with, when the run falls short.
    func shortfall(_ coverage: Coverage) -> CoverageShortfall? {
        guard let minimum, let line = coverage.shortfall(below: minimum) else { return nil }
        return CoverageShortfall(line)
    }

    func discard() { report?.discard() }
}
