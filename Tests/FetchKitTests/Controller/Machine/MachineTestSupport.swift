@testable import FetchKit

/// A delegate that receives nothing: the machine's tests only need one to be set.
final class StubDelegate: ResultsControllerDelegate, Sendable {
    typealias Controller = ResultsController<Row>

    /// One for all tests (the machine holds its delegate weakly).
    static let shared = StubDelegate()
}

extension ControllerMachine<Row>.Event {
    /// Sets the stub delegate (`true`) or removes the delegate, on the controller's own task.
    static func delegateChanged(_ attached: Bool) -> Self {
        .delegateSet(attached ? StubDelegate.shared : nil, actor: nil)
    }

    /// A `sync()` call whose resumption the test does not follow.
    static var syncRequested: Self { .syncRequested(SyncWaiter {}) }
}
