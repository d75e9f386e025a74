// FetchKitPeer: a second FetchKit app instance for the PostgreSQL tests, run as its own process.
//
//   FetchKitPeer write URL SEED TRANSACTIONS   random transactions of the live-results check
//   FetchKitPeer watch URL NAME                live controllers until the note `done-NAME` appears
//   FetchKitPeer instance URL NAME SEED TRANSACTIONS CONTROLLERS FEED
//                                              a whole app instance: controllers, writes, then a check
//
// Both open a PostgresStore of the fixture schema at URL (whose search_path names the test's schema) and
// print one JSON line of what they did; a failure prints its reason on stderr and exits 1. Log lines (warnings
// and above) go to stderr: the JSON line stays the last of stdout.
import FetchKit
import FetchKitPostgres
import FetchKitTesting
import Foundation
import Logging

LoggingSystem.bootstrap { label in
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = .warning
    return handler
}

let arguments = CommandLine.arguments.dropFirst()
do {
    switch (arguments.first, arguments.count) {
    case ("write", 4):
        let values = Array(arguments.dropFirst())
        guard let seed = UInt64(values[1]), let count = Int(values[2]) else { throw PeerError.usage }
        print(try await Peer(url: values[0]).write(seed: seed, transactions: count))
    case ("watch", 3):
        let values = Array(arguments.dropFirst())
        print(try await Peer(url: values[0]).watch(name: values[1]))
    case ("instance", 7):
        let values = Array(arguments.dropFirst())
        guard let seed = UInt64(values[2]), let count = Int(values[3]), let controllers = Int(values[4]),
            let feed = PostgresStore.ChangeFeedKind(rawValue: values[5])
        else { throw PeerError.usage }
        let peer = Peer(url: values[0], feed: feed)
        print(try await peer.instance(name: values[1], seed: seed, transactions: count, controllers: controllers))
    default:
        throw PeerError.usage
    }
} catch {
    FileHandle.standardError.write(Data("FetchKitPeer: \(error)\n".utf8))
    exit(1)
}
