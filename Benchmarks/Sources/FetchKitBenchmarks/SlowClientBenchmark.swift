import FetchKit
import FetchKitSession
import Foundation

/// A web client that reads one message a second while its rows change a thousand times a second: the session sends
/// the next message only once the last was read, so its backlog stays bounded and so does the process's memory
/// (`fetchkit-benchmarks slow-client [--rows 1000] [--rate 1000] [--seconds 30] [--warmup 5] [--read-ms 1000]
/// [--rounds 3] [--max-growth-mb 8]`).
///
/// Each run opens one session of the ticket board (``TicketBoard``, `--rows` tickets in scope, a ``ResumeStore`` as
/// a server keeps) on a new SQLite store, its client taking `--read-ms` over each message; the writer
/// (``TicketWriter``) commits `--rate` writes a second to the session's rows for `--warmup` then `--seconds`
/// seconds. The resident set is sampled every second after the warm-up: its start, maximum and end, and its growth
/// (maximum − start) in MB and MB/s; with the messages the client received and their average size. The baseline of
/// the same round is the same run with a client that reads at once (the two in turn, the slow one first every other
/// round); medians of the rounds. After the writer stops, each client must come to hold a fresh fetch within 30 s;
/// otherwise, or when the slow client's growth in any round exceeds `--max-growth-mb`, it exits 1.
enum SlowClientBenchmark {
    struct Settings {
        var rows: Int
        var rate: Int
        var seconds: Int
        var warmup: Int
        var readDelay: Duration
        var rounds: Int
        var maxGrowthMB: Double
    }

    /// One run's figures (resident set in MB).
    struct Run {
        /// The resident set every second after the warm-up.
        var samples: [Double] = []
        var start: Double { samples.first ?? 0 }
        var maximum: Double { samples.max() ?? 0 }
        var end: Double { samples.last ?? 0 }
        var writes = 0
        var messages = 0
        var bytes = 0
        /// `status` messages among them.
        var statuses = 0
        /// How long after the load the client held a fresh fetch, in seconds, and the messages it read meanwhile.
        var drained: Double?
        var drainMessages = 0
        var growth: Double { maximum - start }
        var bytesPerMessage: Double { Double(bytes) / Double(max(messages, 1)) }
    }

    /// Runs the rounds and reports; `false` when a client did not come to hold the list or the budget was exceeded.
    static func run(_ settings: Settings) async throws -> Bool {
        print(
            "slow-client: \(settings.rows) tickets in scope, \(settings.rate) writes/s for \(settings.warmup) + "
                + "\(settings.seconds) s, slow reader \(Int(Measurement.milliseconds(settings.readDelay))) ms "
                + "a message, \(settings.rounds) rounds")
        var slow: [Run] = []
        var fast: [Run] = []
        for index in 0..<settings.rounds {
            for isSlow in index % 2 == 0 ? [true, false] : [false, true] {
                let run = try await measure(settings, slow: isSlow, seed: UInt64(200 + index))
                if isSlow { slow.append(run) } else { fast.append(run) }
                report("round \(index + 1), \(isSlow ? "slow" : "fast") reader", run, seconds: settings.seconds)
            }
        }
        func line(_ name: String, _ runs: [Run], _ value: (Run) -> Double, _ format: String) -> String {
            medianLine(name, runs.map(value), format)
        }
        for (name, runs) in [("slow reader", slow), ("fast reader (baseline)", fast)] {
            print("  \(name):")
            print(line("RSS after warm-up, MB", runs, \.start, "%.1f"))
            print(line("RSS max, MB", runs, \.maximum, "%.1f"))
            print(line("RSS end, MB", runs, \.end, "%.1f"))
            print(line("growth, MB", runs, \.growth, "%.1f"))
            print(line("growth, MB/s", runs, { $0.growth / Double(settings.seconds) }, "%.3f"))
            print(line("messages received", runs, { Double($0.messages) }, "%.0f"))
            print(line("bytes per message", runs, \.bytesPerMessage, "%.0f"))
            print(line("writes committed (one batch each)", runs, { Double($0.writes) }, "%.0f"))
            print(line("writes committed per second", runs, { Double($0.writes) / loadSeconds(settings) }, "%.0f"))
        }
        // A queue of one message per commit, at the fast reader's size per commit, less what the slow one read.
        let perWrite = median(fast.map { Double($0.bytes) / Double(max($0.writes, 1)) })
        let unbounded = median(slow.map { (Double($0.writes) * perWrite - Double($0.bytes)) / 1e6 })
        print(
            String(
                format: "  an unbounded queue for the slow reader would hold ≈ %.0f MB of JSON at the end", unbounded))
        let drained = (slow + fast).allSatisfy { $0.drained != nil }
        let (withinBudget, verdict) = budget(
            slow.map(\.growth).max() ?? 0, limit: settings.maxGrowthMB, "slow reader's worst growth, MB", "%.1f")
        print("  every client holds a fresh fetch after the load: \(drained ? "yes" : "NO")\(verdict)")
        return drained && withinBudget
    }

    static func loadSeconds(_ settings: Settings) -> Double { Double(settings.warmup + settings.seconds) }

    static func report(_ name: String, _ run: Run, seconds: Int) {
        print(
            String(
                format: "  %@: RSS %.1f → max %.1f → end %.1f MB (growth %.1f MB, %.3f MB/s); %d messages (%d status) "
                    + "of %.0f B on average; %d writes; holds a fresh fetch %@",
                name, run.start, run.maximum, run.end, run.growth, run.growth / Double(seconds), run.messages,
                run.statuses, run.bytesPerMessage, run.writes,
                run.drained.map { String(format: "%.1f s after the load (%d messages)", $0, run.drainMessages) }
                    ?? "NEVER (30 s)"))
        let tens = run.samples.enumerated().filter { $0.offset % 10 == 0 }.map { String(format: "%.1f", $0.element) }
        print("    RSS every 10 s (MB): \(tens.joined(separator: " "))")
    }

    static func measure(_ settings: Settings, slow: Bool, seed: UInt64) async throws -> Run {
        let (store, close) = try await TicketBoard.open(rows: settings.rows)
        let session = TicketBoard.session(store, resume: ResumeStore())
        let client = ClientSocket(readDelay: slow ? settings.readDelay : nil)
        let task = client.connect(to: session)
        _ = try await client.wait(for: TicketBoard.current(store), timeout: .seconds(30))
        let before = client.now
        var writer = TicketWriter(rows: settings.rows, seed: seed)
        let warmup = Duration.seconds(settings.warmup)
        let sampler = Task {
            var samples: [Int] = []
            samples.reserveCapacity(settings.seconds + 10)
            let clock = ContinuousClock()
            var next = clock.now + warmup
            while (try? await Task.sleep(until: next, clock: clock)) != nil {
                samples.append(ScaleBenchmark.residentBytes())
                next += .seconds(1)
            }
            return samples
        }
        var run = Run()
        run.writes = try await writer.run(store, rate: settings.rate, for: warmup + .seconds(settings.seconds))
        sampler.cancel()
        run.samples = await sampler.value.map { Double($0) / 1e6 }
        let after = client.now
        run.messages = after.messages - before.messages
        run.bytes = after.bytes - before.bytes
        run.statuses = after.types["status", default: 0] - before.types["status", default: 0]
        let loadEnd = ContinuousClock.now
        if try await client.wait(for: TicketBoard.current(store), timeout: .seconds(30)) {
            run.drained = Measurement.milliseconds(ContinuousClock.now - loadEnd) / 1_000
            run.drainMessages = client.now.messages - after.messages
        }
        client.disconnect()
        await task.value
        await close()
        return run
    }
}
