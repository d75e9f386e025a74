// fetchkit-live-list: a live board in the browser, kept in step with the database by FetchKit.
//
//   swift run fetchkit-live-list                                   # SQLite file live-list.sqlite, port 8080
//   FETCHKIT_STORE_URL=postgres://app@localhost/app LIVE_LIST_PORT=9000 swift run fetchkit-live-list
//
// Configuration (environment variables, or a JSON file named by LIVE_LIST_CONFIG): FetchKit's store keys
// (FETCHKIT_STORE_URL picks the backend) and liveList.host / liveList.port (LIVE_LIST_HOST, LIVE_LIST_PORT).
import FetchKit
import FetchKitPostgres
import FetchKitSQLite
import Foundation
import Hummingbird
import LiveList
import Logging

var environment = ProcessInfo.processInfo.environment
if environment["FETCHKIT_STORE_URL"] == nil { environment["FETCHKIT_STORE_URL"] = "sqlite:live-list.sqlite" }
let config = try await StoreConfiguration.reader(environment: environment, jsonFile: environment["LIVE_LIST_CONFIG"])
let host = config.string(forKey: "liveList.host") ?? "127.0.0.1"
let port = config.int(forKey: "liveList.port") ?? 8080

let logger = {
    var logger = Logger(label: "fetchkit-live-list")
    logger.logLevel = .info
    return logger
}()
let registry: StoreRegistry = [SQLiteStore.self, PostgresStore.self]
let store = try await registry.open(config: config, schema: try Board.schema())
try await Board.seedIfEmpty(store)
let server = try LiveListServer(store: store, logger: logger)
try await server.application(
    host: host, port: port,
    onServerRunning: { port in
        logger.info(
            "open http://\(host):\(port)/ in a browser (another tab with ?where=done%20==%20NO shows a filtered view)")
    }
).runService()
await store.close()
