import ArgumentParser
import FetchKit
import Foundation

#if Postgres
    import FetchKitPostgres
#endif

/// `fetchkit slots`: the database's logical replication slots (what each retains), and dropping one.
struct SlotsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "slots",
        abstract: "List the logical replication slots of a PostgreSQL database, or drop one.",
        discussion: """
            A store reading the log through logical replication streams from a slot: a temporary one (gone with \
            its connection) or a persistent one it names. A persistent slot nobody reads keeps the server's \
            write-ahead log until the disk fills: list what each slot retains, and drop the ones no store uses.

              fetchkit slots --store postgres://admin@db/app
              fetchkit slots --store postgres://admin@db/app --drop fetchkit_orders
            """
    )

    @Option(help: "The PostgreSQL database: postgres://user@host/db.")
    var store: String

    @Option(help: "Drop this slot (it must not be in use).")
    var drop: String?

    func run() async throws {
        #if Postgres
            let url = try PostgresURL(store)
            if let drop {
                try await PostgresStore.dropReplicationSlot(drop, url: url)
                print("dropped \(drop)")
                return
            }
            let slots = try await PostgresStore.replicationSlots(url: url)
            if slots.isEmpty {
                print("no pgoutput slots")
                return
            }
            print("slot\tkind\tstreaming to\tretained\tconfirmed")
            for slot in slots {
                let kind = slot.isTemporary ? "temporary" : "persistent"
                let process = slot.activeProcess.map { "process \($0)" } ?? "nobody"
                let retained = Self.bytes(slot.retainedBytes)
                print("\(slot.name)\t\(kind)\t\(process)\t\(retained)\t\(slot.confirmedPosition ?? "-")")
            }
        #else
            throw PostgresNotBuiltIn(needed: "fetchkit slots")
        #endif
    }

    /// `bytes` in B, kB, MB or GB (1024-based, as PostgreSQL's `pg_size_pretty`).
    static func bytes(_ bytes: Int64) -> String {
        var value = Double(bytes)
        for unit in ["B", "kB", "MB", "GB"] {
            if value < 1024 || unit == "GB" {
                return unit == "B" ? "\(bytes) B" : "\(String(format: "%.1f", value)) \(unit)"
            }
            value /= 1024
        }
        return "\(bytes) B"
    }
}
