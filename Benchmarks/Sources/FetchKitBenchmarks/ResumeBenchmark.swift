import FetchKit
import FetchKitSession
import Foundation

/// What a web client that comes back receives, against a reload (`fetchkit-benchmarks resume [--rows 1000]
/// [--offline 5] [--rate 100] [--rounds 3] [--max-ratio 0.75]`).
///
/// Each round opens one session of the ticket board (``TicketBoard``: `--rows` tickets in the session's scope) on a
/// new SQLite store; the client applies the list, then a second of batches while the writer commits `--rate` writes
/// a second (``TicketWriter``), keeping each message's token. It disconnects for `--offline` seconds while the
/// writer goes on, then reconnects presenting its last token. Once the writer stopped, at the same moment: the bytes
/// the session sends until the client holds the current list — the `resumed` answer — against a new client's full
/// reload (the `results` message), and the time from `open` to each list (the two connect in turn, the resuming one
/// first every other round). Medians of the rounds. The resumed list must be a fresh fetch's (so must the reload's)
/// and the answer a `resumed`, never a `reset`; otherwise, or when any round's resumed bytes exceed `--max-ratio`
/// of its reload's, it exits 1.
enum ResumeBenchmark {
    struct Settings {
        var rows: Int
        var offlineSeconds: Int
        var rate: Int
        var rounds: Int
        var maxRatio: Double
    }

    /// One round's figures.
    struct Round {
        var resumedBytes = 0
        var reloadBytes = 0
        var resumedMessages = 0
        var resumedMilliseconds = 0.0
        var reloadMilliseconds = 0.0
        var offlineWrites = 0
        var changes = (inserts: 0, deletes: 0, moves: 0, updates: 0)
        /// `reset` messages the resuming client received (it must receive none).
        var resets = 0
        var exact = true
        var ratio: Double { Double(resumedBytes) / Double(max(reloadBytes, 1)) }
    }

    /// Runs the rounds and reports; `false` when a list was wrong or the budget exceeded.
    static func run(_ settings: Settings) async throws -> Bool {
        print(
            "resume: \(settings.rows) tickets in scope, \(settings.rate) writes/s, "
                + "offline \(settings.offlineSeconds) s, \(settings.rounds) rounds")
        var rounds: [Round] = []
        for index in 0..<settings.rounds {
            let round = try await measure(settings, round: index)
            rounds.append(round)
            print(
                String(
                    format: "  round %d: resumed %.1f KB (%d message%@) vs reload %.1f KB — ratio %.3f; "
                        + "open → list %.1f ms vs %.1f ms; %d writes offline, resumed with %d inserts, %d deletes, "
                        + "%d moves, %d updates%@%@",
                    index + 1, kilobytes(round.resumedBytes), round.resumedMessages,
                    round.resumedMessages == 1 ? "" : "s", kilobytes(round.reloadBytes), round.ratio,
                    round.resumedMilliseconds, round.reloadMilliseconds, round.offlineWrites, round.changes.inserts,
                    round.changes.deletes, round.changes.moves, round.changes.updates,
                    round.resets == 0 ? "" : " — RESET", round.exact ? "" : " — NOT EXACT"))
        }
        print("  over the rounds:")
        print(medianLine("resumed answer, KB", rounds.map { kilobytes($0.resumedBytes) }, "%.1f"))
        print(medianLine("full reload, KB", rounds.map { kilobytes($0.reloadBytes) }, "%.1f"))
        print(medianLine("ratio resumed / reload", rounds.map(\.ratio), "%.3f"))
        print(medianLine("open → list resumed, ms", rounds.map(\.resumedMilliseconds), "%.1f"))
        print(medianLine("open → list reloaded, ms", rounds.map(\.reloadMilliseconds), "%.1f"))
        let exact = rounds.allSatisfy(\.exact)
        let resets = rounds.reduce(0) { $0 + $1.resets }
        let (withinBudget, verdict) = budget(
            rounds.map(\.ratio).max() ?? 0, limit: settings.maxRatio, "worst round's ratio", "%.3f")
        print("  every resumed list equals a fresh fetch: \(exact ? "yes" : "NO"); resets: \(resets)\(verdict)")
        return exact && resets == 0 && withinBudget
    }

    static func measure(_ settings: Settings, round index: Int) async throws -> Round {
        let (store, close) = try await TicketBoard.open(rows: settings.rows)
        let session = TicketBoard.session(store, resume: ResumeStore())
        var writer = TicketWriter(rows: settings.rows, seed: UInt64(100 + index))
        var round = Round()

        let first = ClientSocket()
        let firstTask = first.connect(to: session)
        _ = try await writer.run(store, rate: settings.rate, for: .seconds(1))
        round.exact = try await first.wait(for: TicketBoard.current(store), timeout: .seconds(30))
        first.disconnect()
        await firstTask.value

        round.offlineWrites = try await writer.run(store, rate: settings.rate, for: .seconds(settings.offlineSeconds))
        let expected = try await TicketBoard.current(store)
        let resumed = ClientSocket(resuming: first)
        let reload = ClientSocket()
        for client in index % 2 == 0 ? [resumed, reload] : [reload, resumed] {
            let opened = ContinuousClock.now
            let task = client.connect(to: session)
            let holds = try await client.wait(for: expected, timeout: .seconds(30))
            let received = client.now
            client.disconnect()
            await task.value
            let milliseconds = received.listAt.map { Measurement.milliseconds($0 - opened) } ?? .infinity
            if client === resumed {
                round.resumedBytes = received.bytes
                round.resumedMessages = received.messages
                round.resumedMilliseconds = milliseconds
                round.changes = received.lastChanges
                round.resets = received.types["reset", default: 0]
                round.exact = round.exact && holds && received.types["resumed"] == 1
            } else {
                round.reloadBytes = received.bytes
                round.reloadMilliseconds = milliseconds
                round.exact = round.exact && holds && received.types["results"] == 1
            }
        }
        await close()
        return round
    }

    static func kilobytes(_ bytes: Int) -> Double { Double(bytes) / 1_000 }
}
