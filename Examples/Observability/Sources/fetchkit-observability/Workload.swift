import FetchKit
import ServiceLifecycle
import Synchronization
import Tracing

/// Live controllers over a task list, and a writer that changes a random task at a steady rate, each write in a
/// span as a request handler's would be: what fills the dashboard.
final class Workload: Service, Sendable {
    /// Tasks in lanes, ordered by position.
    static let schema: Schema = {
        let task = Entity(
            "Task", table: "observability_task", primaryKey: .integer("id"),
            attributes: [
                Attribute("lane", .integer, indexed: true), Attribute("title", .text),
                Attribute("position", .double), Attribute("done", .bool)
            ])
        return try! Schema([task])
    }()

    /// How many tasks and lanes there are.
    static let (taskCount, laneCount) = (1_000, 20)

    let store: any PersistentStore
    let controllerCount: Int
    let writesPerSecond: Int
    /// The live controllers, kept alive while the workload runs, and the tasks that read their batches (what a
    /// client's connection would send on).
    private let controllers: Mutex<[ResultsController<Row>]> = Mutex([])
    private let readers: Mutex<[Task<Void, Never>]> = Mutex([])

    init(store: any PersistentStore, controllers: Int, writesPerSecond: Int) {
        self.store = store
        self.controllerCount = controllers
        self.writesPerSecond = writesPerSecond
    }

    /// Writes the tasks when there are none, and fetches the controllers: lanes by equality, a range of
    /// positions, and titles holding a 7 (a scan: every changed row is tested), the last all alike, so that one
    /// leads and the others follow its results.
    func start() async throws {
        if try await store.count(FetchRequest<Row>(entity: "Task")) == 0 {
            try await store.write { tx in
                for id in 1...Int64(Self.taskCount) {
                    _ = try tx.insert(
                        [
                            "id": .integer(id), "lane": .integer(id % Int64(Self.laneCount)),
                            "title": .text("task \(id)"), "position": .double(Double(id)), "done": .bool(false)
                        ], into: "Task")
                }
            }
        }
        var made: [ResultsController<Row>] = []
        for index in 0..<controllerCount {
            let predicate: FetchPredicate =
                switch index % 3 {
                case 0: .key("lane") == Int64(index % Self.laneCount)
                case 1: .key("position") < Double(index % Self.taskCount + 50)
                default: try FetchPredicate(format: "title CONTAINS '7'")
                }
            let controller = ResultsController(
                store: store,
                request: FetchRequest(entity: "Task", predicate: predicate, sortDescriptors: [.ascending("position")]))
            let updates = controller.updates()
            readers.withLock { $0.append(Task { await Self.read(updates) }) }
            try await controller.performFetch()
            made.append(controller)
        }
        controllers.withLock { $0 = made }
    }

    /// Reads every batch of `updates` until it ends (or fails: the controller stopped following the store).
    private static func read(_ updates: ResultsStream<Row>) async {
        do {
            for try await _ in updates {}
        } catch {
            return
        }
    }

    /// Writes until the service group shuts down.
    func run() async throws {
        let interval = Duration.seconds(1) / max(writesPerSecond, 1)
        var generator = SystemRandomNumberGenerator()
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            let id = Int64.random(in: 1...Int64(Self.taskCount), using: &generator)
            let lane = Int64.random(in: 0..<Int64(Self.laneCount), using: &generator)
            try await withSpan("move task") { span in
                span.attributes["task.id"] = Int(id)
                try await store.write { tx in
                    _ = try tx.update(
                        "Task", key: .integer(id),
                        set: ["lane": .integer(lane), "title": .text("task \(id) in lane \(lane)")])
                }
            }
            try? await Task.sleep(for: interval)
        }
        readers.withLock { readers in
            for reader in readers { reader.cancel() }
            readers = []
        }
        controllers.withLock { $0 = [] }
    }
}
