import ArgumentParser
import FetchKit
import FetchKitSQLite

/// The scenarios `fetchkit demo` shows.
enum DemoName: String, CaseIterable, ExpressibleByArgument {
    case todos, multi, composite, reorder, batches, wire
}
