import { describe, expect, it } from 'vitest';
import {
  actionApplies,
  assigneeFilterOf,
  assigneeQuery,
  assigneesShown,
  isTyping,
  listOrderOf,
  newAlertCount,
  severitiesOf,
  shortcutKey,
  undoAcknowledgement,
  undoSteps,
} from './alert-triage';

describe('the list order in the address', () => {
  it('reads ?sort and ?order, desc by default, none for a sort the API would refuse', () => {
    expect(listOrderOf(new URLSearchParams('sort=severity&order=desc'))).toEqual({ sort: 'severity', order: 'desc' });
    expect(listOrderOf(new URLSearchParams('sort=events&order=asc'))).toEqual({ sort: 'events', order: 'asc' });
    expect(listOrderOf(new URLSearchParams('sort=started_at'))).toEqual({ sort: 'started_at', order: 'desc' });
    expect(listOrderOf(new URLSearchParams('sort=title'))).toBeNull();
    expect(listOrderOf(new URLSearchParams(''))).toBeNull();
  });
});

describe('the filters in the address', () => {
  it('reads the severities chosen in the API\'s order, dropping unknown ones', () => {
    expect(severitiesOf(new URLSearchParams('severity=low,critical,urgent'))).toEqual(['critical', 'low']);
    expect(severitiesOf(new URLSearchParams(''))).toEqual([]);
  });

  it('reads the assignee filter and says it as the API asks', () => {
    expect(assigneeQuery(assigneeFilterOf(null))).toEqual({});
    expect(assigneeQuery(assigneeFilterOf('me'))).toEqual({ assignee_id: 'me' });
    expect(assigneeQuery(assigneeFilterOf('none'))).toEqual({ assignee_id: 'none' });
    expect(assigneeQuery(assigneeFilterOf('mara'))).toEqual({ assignee_username: 'mara' });
  });
});

describe('one-click actions and their undo', () => {
  const state = (status: 'triggered' | 'acknowledged' | 'resolved', assigneeIds: number[] = []) => ({ status, assigneeIds });

  it('offers an action only where it changes something', () => {
    expect(actionApplies('acknowledge', state('triggered'), 1)).toBe(true);
    expect(actionApplies('acknowledge', state('acknowledged'), 1)).toBe(false);
    expect(actionApplies('resolve', state('acknowledged'), 1)).toBe(true);
    expect(actionApplies('resolve', state('resolved'), 1)).toBe(false);
    expect(actionApplies('assign', state('triggered', [2]), 1)).toBe(true);
    expect(actionApplies('assign', state('triggered', [1, 2]), 1)).toBe(false);
    expect(actionApplies('assign', state('triggered'), null)).toBe(false);
  });

  it('undoes an acknowledgement back to triggered, unassigning the acknowledger it assigned', () => {
    expect(undoSteps(state('triggered'), state('acknowledged', [1]))).toEqual([{ status: 'triggered' }, { assigneeIds: [] }]);
    expect(undoSteps(state('triggered', [2]), state('acknowledged', [2]))).toEqual([{ status: 'triggered' }]);
  });

  it("undoes the bulk acknowledgement, which answers only which alerts it changed: the status, then the assignees before", () => {
    expect(undoAcknowledgement(state('triggered'))).toEqual([{ status: 'triggered' }, { assigneeIds: [] }]);
    expect(undoAcknowledgement(state('triggered', [2]))).toEqual([{ status: 'triggered' }, { assigneeIds: [2] }]);
  });

  it('undoes a resolution to the status before, through triggered when that is all the API reopens to', () => {
    expect(undoSteps(state('triggered', [2]), state('resolved', [2]))).toEqual([{ status: 'triggered' }]);
    expect(undoSteps(state('acknowledged', [2]), state('resolved', [2]))).toEqual([{ status: 'triggered' }, { status: 'acknowledged' }]);
    // Acknowledging again would assign the undoer: the assignees go back to none after it.
    expect(undoSteps(state('acknowledged'), state('resolved'))).toEqual([{ status: 'triggered' }, { status: 'acknowledged' }, { assigneeIds: [] }]);
  });

  it('undoes an assignment by putting the assignees back, and has nothing to undo when nothing changed', () => {
    expect(undoSteps(state('triggered', [2]), state('triggered', [2, 1]))).toEqual([{ assigneeIds: [2] }]);
    expect(undoSteps(state('triggered', [2]), state('triggered', [2]))).toEqual([]);
  });
});

describe('keyboard shortcuts', () => {
  const press = (target: EventTarget | null, extra: Partial<{ ctrlKey: boolean; defaultPrevented: boolean }> = {}) =>
    shortcutKey({ key: 'a', ctrlKey: false, metaKey: false, altKey: false, defaultPrevented: false, target, ...extra });

  it('stay quiet while typing in an input, textarea, select or contenteditable', () => {
    for (const html of ['<input>', '<textarea></textarea>', '<select></select>', '<div contenteditable="true"><b>x</b></div>']) {
      document.body.innerHTML = html;
      const element = (document.body.querySelector('b') ?? document.body.firstElementChild) as HTMLElement;
      expect([html, isTyping(element), press(element)]).toEqual([html, true, null]);
    }
    document.body.innerHTML = '<button>Go</button>';
    expect(press(document.body.firstElementChild)).toBe('a');
    expect(press(document.body)).toBe('a');
  });

  it('leave modified and handled keys alone', () => {
    expect(press(document.body, { ctrlKey: true })).toBeNull();
    expect(press(document.body, { defaultPrevented: true })).toBeNull();
  });
});

describe('the list rows', () => {
  it('show three assignees and "+N" for the rest', () => {
    const seventeen = Array.from({ length: 17 }, (_, index) => index);
    expect(assigneesShown(seventeen)).toEqual({ shown: [0, 1, 2], more: 14 });
    expect(assigneesShown([1, 2])).toEqual({ shown: [1, 2], more: 0 });
  });

  it('count the alerts newer than the newest seen', () => {
    expect(newAlertCount([9, 8, 7, 5], 7)).toBe(2);
    expect(newAlertCount([9, 8], null)).toBe(0);
  });
});
