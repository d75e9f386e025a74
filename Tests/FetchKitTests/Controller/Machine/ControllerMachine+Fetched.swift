@testable import FetchKit

extension ControllerMachine where Object == Row {
    /// A machine whose first fetch (of no rows) worked at `instant`: live.
    static func fetched(at instant: ContinuousClock.Instant) -> Self {
        var machine = Self()
        _ = machine.handle(.fetchStarted, at: instant)
        _ = machine.handle(.published(.init(snapshot: .init(), previous: .init(), hasChanges: false)), at: instant)
        _ = machine.handle(.fetchSucceeded, at: instant)
        return machine
    }
}
