import Synchronization

/// The controller's work, one command at a time and in order, without a task of its own while idle: the
/// first command of a burst starts a task that runs the queue dry and ends. A server keeps thousands of
/// controllers that are idle almost all the time; an idle one holds no task, no stream and no stack.
extension ResultsController {
    /// Queues `command`; it runs after every command queued before it, never beside another.
    func enqueue(_ command: ControllerCommand) {
        let (start, change) = queue.withLock { queue -> (Bool, (backlog: Int, collapsed: Bool)) in
            let change = queue.append(command)
            guard !queue.isDraining else { return (false, change) }
            queue.isDraining = true
            return (true, change)
        }
        noteBacklog(change.backlog)
        if change.collapsed {
            send(.counted(.coalesced))
            router.metrics.coalescedDeliveries.increment()
        }
        if start { census.start { await self.drain() } }
    }

    /// Moves the delivery-backlog gauge by `change`.
    private func noteBacklog(_ change: Int) {
        if change > 0 {
            router.metrics.deliveryBacklog.increment(by: Double(change))
        } else if change < 0 {
            router.metrics.deliveryBacklog.decrement(by: Double(-change))
        }
    }

    /// Runs `command` on the caller's task when the controller is idle (then whatever was queued meanwhile),
    /// or queues it behind the controller's current work.
    func run(_ command: ControllerCommand) async {
        guard claim(orQueue: command) else { return }
        await handle(command)
        await endTurn()
    }

    /// Takes the queue for the caller's task when the controller is idle (`true`: the caller runs its command,
    /// then ``endTurn()``), or queues `command` behind the controller's current work (`false`).
    func claim(orQueue command: @autoclosure () -> ControllerCommand) -> Bool {
        let (inline, change) = queue.withLock { queue -> (Bool, Int) in
            guard !queue.isDraining else { return (false, queue.append(command()).backlog) }
            queue.isDraining = true
            return (true, 0)
        }
        noteBacklog(change)
        return inline
    }

    /// Ends a turn that ``claim(orQueue:)`` gave the caller: the queue stops, or drains what was queued meanwhile.
    func endTurn() async {
        if queue.withLock({ $0.stopIfIdle() }) { return }
        await drain()
    }

    /// Runs queued commands until none is left.
    func drain() async {
        while let command = nextCommand() { await handle(command) }
    }

    private func nextCommand() -> ControllerCommand? {
        guard let (command, change) = queue.withLock({ $0.next() }) else { return nil }
        noteBacklog(change)
        return command
    }
}
