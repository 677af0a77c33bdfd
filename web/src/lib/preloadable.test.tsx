import { act, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { preloadable } from './preloadable';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const Hello = ({ name }: { name: string }) => <p>hello {name}</p>;

describe('preloadable', () => {
  it('draws at once, with no fallback, when its code was loaded beforehand', async () => {
    const Page = preloadable(async () => Hello);
    await Page.preload();
    render(
      <Suspense fallback={<p>waiting</p>}>
        <Page name="crew" />
      </Suspense>,
    );
    // synchronously: React.lazy would show the fallback here and the page only after a promise
    expect(screen.getByText('hello crew')).toBeInTheDocument();
    expect(screen.queryByText('waiting')).toBeNull();
  });

  it('suspends while its code is on the way, and loads it once', async () => {
    const code = deferred<typeof Hello>();
    let loads = 0;
    const Page = preloadable(() => {
      loads += 1;
      return code.promise;
    });
    render(
      <Suspense fallback={<p>waiting</p>}>
        <Page name="crew" />
      </Suspense>,
    );
    expect(screen.getByText('waiting')).toBeInTheDocument();
    void Page.preload();
    await act(async () => code.resolve(Hello));
    expect(await screen.findByText('hello crew')).toBeInTheDocument();
    expect(loads).toBe(1);
  });

  it('tries again after a failed load', async () => {
    let attempt = 0;
    const Page = preloadable(async () => {
      attempt += 1;
      if (attempt === 1) throw new Error('offline');
      return Hello;
    });
    await expect(Page.preload()).rejects.toThrow('offline');
    await expect(Page.preload()).resolves.toBe(Hello);
    expect(attempt).toBe(2);
  });
});
