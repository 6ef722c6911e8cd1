/// What drives a motion scene: a scroll offset in points or a time in seconds.
public enum Driver: String, Sendable, CaseIterable {
    case scroll, time
}

/// The driver values at which a scene is seen: both drivers, one of them sweeping.
public struct DriverState: Sendable, Equatable {
    public var scroll: Double
    public var time: Double
    public init(scroll: Double = 0, time: Double = 0) {
        self.scroll = scroll
        self.time = time
    }

    public subscript(driver: Driver) -> Double {
        get { driver == .scroll ? scroll : time }
        set { if driver == .scroll { scroll = newValue } else { time = newValue } }
    }
}

/// The frames of an animation: a scroll from `from` to `to` in `frames` evenly spaced offsets
/// (both ends included), or a time from 0 to `duration` at `fps` (frame k at k/fps, and a last
/// frame at the duration itself).
public enum Timeline: Sendable, Equatable {
    case scroll(from: Double, to: Double, frames: Int)
    case time(duration: Double, fps: Double)

    public var driver: Driver {
        switch self {
        case .scroll: .scroll
        case .time: .time
        }
    }

    /// The driver value of every frame, in order.
    public var values: [Double] {
        switch self {
        case .scroll(let from, let to, let frames):
            guard frames > 1 else { return [from] }
            return (0..<frames).map { k in k == frames - 1 ? to : from + (to - from) * Double(k) / Double(frames - 1) }
        case .time(let duration, let fps):
            let whole = Int((duration * fps + 1e-9).rounded(.down))
            var times = (0...whole).map { Double($0) / fps }
            if duration - times[times.count - 1] > 1e-9 { times.append(duration) }
            return times
        }
    }

    /// Frame k's driver state, the other driver held at `other`.
    public func states(other: DriverState = DriverState()) -> [DriverState] {
        values.map { v in
            var state = other
            state[driver] = v
            return state
        }
    }
}
