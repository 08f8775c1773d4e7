//! [`Arena`]: a slot vector whose first slots are shared by every run (the standard library's
//! template, frozen once per process) and copied into the run only when it writes one.
//!
//! A run forks the template by cloning its arenas: that copies two `Arc` pointers, not the
//! standard library's objects and strings, so an execution that is waiting (on a tool call)
//! holds only what it made or changed itself.

use std::sync::Arc;

/// A vector of slots: `base` (shared, read-only) then `own` (this run's). Writing a base slot
/// copies it into `written` first.
#[derive(Clone, Debug)]
pub struct Arena<T: Clone> {
    base: Arc<Vec<T>>,
    /// This run's copies of base slots it wrote (empty until the first such write).
    written: Vec<Option<Box<T>>>,
    own: Vec<T>,
}

impl<T: Clone> Default for Arena<T> {
    fn default() -> Self {
        Arena {
            base: Arc::new(Vec::new()),
            written: Vec::new(),
            own: Vec::new(),
        }
    }
}

impl<T: Clone> Arena<T> {
    /// Slots in all.
    #[inline]
    pub fn len(&self) -> usize {
        self.base.len() + self.own.len()
    }

    /// The slots shared with the template (never freed by a run's collector).
    #[inline]
    pub fn base_len(&self) -> usize {
        self.base.len()
    }

    #[inline]
    pub fn get(&self, i: usize) -> &T {
        let b = self.base.len();
        if i < b {
            match self.written.get(i) {
                Some(Some(x)) => x,
                _ => &self.base[i],
            }
        } else {
            &self.own[i - b]
        }
    }

    #[inline]
    pub fn get_mut(&mut self, i: usize) -> &mut T {
        let b = self.base.len();
        if i < b {
            if self.written.is_empty() {
                self.written.resize_with(b, || None);
            }
            let base = &self.base;
            self.written[i].get_or_insert_with(|| Box::new(base[i].clone()))
        } else {
            &mut self.own[i - b]
        }
    }

    /// Append a slot; its index.
    pub fn push(&mut self, v: T) -> usize {
        self.own.push(v);
        self.len() - 1
    }

    /// Every slot in order.
    pub fn iter(&self) -> impl Iterator<Item = &T> {
        (0..self.len()).map(move |i| self.get(i))
    }

    /// The base slots this run wrote (their copies), in slot order.
    pub fn written(&self) -> impl Iterator<Item = (usize, &T)> {
        self.written
            .iter()
            .enumerate()
            .filter_map(|(i, x)| x.as_deref().map(|x| (i, x)))
    }

    /// This run's own slots (after the base ones).
    pub fn own(&self) -> &[T] {
        &self.own
    }

    /// A fork of `template` (a frozen arena: nothing written, nothing of its own) with the
    /// base slots `written` replaced and `own` appended: what [`Arena::written`] and
    /// [`Arena::own`] gave of a fork of the same template. `None` when a written slot is
    /// outside the base or named twice.
    pub fn fork_with(
        template: &Arena<T>,
        written: Vec<(usize, T)>,
        own: Vec<T>,
    ) -> Option<Arena<T>> {
        let b = template.base.len();
        let mut slots: Vec<Option<Box<T>>> = Vec::new();
        if !written.is_empty() {
            slots.resize_with(b, || None);
        }
        for (i, v) in written {
            let slot = slots.get_mut(i)?;
            if slot.is_some() {
                return None;
            }
            *slot = Some(Box::new(v));
        }
        Some(Arena {
            base: template.base.clone(),
            written: slots,
            own,
        })
    }

    /// Make every slot shared: the arena becomes a template whose clones share them.
    pub fn freeze(&mut self) {
        let all: Vec<T> = self.iter().cloned().collect();
        self.base = Arc::new(all);
        self.written = Vec::new();
        self.own = Vec::new();
    }
}

impl<T: Clone> std::ops::Index<usize> for Arena<T> {
    type Output = T;
    fn index(&self, i: usize) -> &T {
        self.get(i)
    }
}

impl<T: Clone> std::ops::IndexMut<usize> for Arena<T> {
    fn index_mut(&mut self, i: usize) -> &mut T {
        self.get_mut(i)
    }
}

#[cfg(test)]
mod tests {
    use super::Arena;

    #[test]
    fn writes_to_shared_slots_stay_in_the_fork() {
        let mut t = Arena::default();
        t.push(1);
        t.push(2);
        t.freeze();
        let mut a = t.clone();
        let b = t.clone();
        a[0] = 10;
        a.push(3);
        assert_eq!(a.iter().copied().collect::<Vec<_>>(), vec![10, 2, 3]);
        assert_eq!(b.iter().copied().collect::<Vec<_>>(), vec![1, 2]);
        assert_eq!(t[0], 1);
        assert_eq!((a.base_len(), a.len()), (2, 3));
    }
}
